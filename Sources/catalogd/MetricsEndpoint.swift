import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Prometheus
import ServiceLifecycle
import Synchronization

/// `--metrics-address`: serves `GET /metrics`, the registry in the Prometheus text format
/// 0.0.4, over plain HTTP/1.1, until graceful shutdown or cancellation.
///
/// A connection quiet for `idleTimeout` is closed, and past `maxConnections` open at once a new
/// one is closed at once, so connections that never send (or never finish) a request cannot
/// pile up on the admin port.
final class MetricsEndpoint: Service, Sendable {
    private let registry: PrometheusCollectorRegistry
    private let address: ListenAddress
    private let idleTimeout: TimeAmount
    private let maxConnections: Int
    private let openConnections = Atomic(0)
    private let bound: EventLoopPromise<SocketAddress>

    init(
        registry: PrometheusCollectorRegistry, address: ListenAddress, idleTimeout: TimeAmount = .seconds(60),
        maxConnections: Int = 64
    ) {
        self.registry = registry
        self.address = address
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
        self.bound = MultiThreadedEventLoopGroup.singleton.any().makePromise()
    }

    /// The address the endpoint listens on, once it does; throws when binding failed.
    var listeningAddress: SocketAddress {
        get async throws { try await bound.futureResult.get() }
    }

    func run() async throws {
        let registry = registry
        let listener: any Channel
        do {
            listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { [self] channel in
                    // A failed initializer has NIO close the connection.
                    guard admit(channel) else { return channel.eventLoop.makeFailedFuture(MetricsConnectionsFull()) }
                    return channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(IdleStateHandler(allTimeout: idleTimeout))
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                        try channel.pipeline.syncOperations.addHandler(MetricsRequestHandler(registry: registry))
                    }
                }
                .bind(host: address.host, port: address.port)
                .get()
        } catch {
            bound.fail(error)
            throw error
        }
        bound.succeed(listener.localAddress!)
        try await withGracefulShutdownHandler {
            try await withTaskCancellationHandler {
                try await listener.closeFuture.get()
            } onCancel: {
                listener.close(promise: nil)
            }
        } onGracefulShutdown: {
            listener.close(promise: nil)
        }
    }

    /// Counts `channel` until it closes; `false`, counting nothing, when `maxConnections` are open.
    private func admit(_ channel: any Channel) -> Bool {
        guard openConnections.wrappingAdd(1, ordering: .relaxed).newValue <= maxConnections else {
            openConnections.wrappingSubtract(1, ordering: .relaxed)
            return false
        }
        channel.closeFuture.whenComplete { [self] _ in openConnections.wrappingSubtract(1, ordering: .relaxed) }
        return true
    }
}

/// Why a metrics connection past the limit was closed.
private struct MetricsConnectionsFull: Error {}

/// Answers HTTP/1.1 requests on a metrics connection: `GET` or `HEAD /metrics` with the
/// registry's text, anything else 404 or 405. Request bodies are read and dropped.
final class MetricsRequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let registry: PrometheusCollectorRegistry
    private var head: HTTPRequestHead?

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            guard let head else { return }
            self.head = nil
            respond(to: head, context: context)
        }
    }

    /// Closes the connection once `IdleStateHandler` finds it quiet.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is IdleStateHandler.IdleStateEvent else { return context.fireUserInboundEventTriggered(event) }
        context.close(promise: nil)
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        var headers = HTTPHeaders()
        let status: HTTPResponseStatus
        let body: [UInt8]
        if path != "/metrics" {
            (status, body) = (.notFound, Array("not found: the metrics are at /metrics\n".utf8))
            headers.add(name: "content-type", value: "text/plain; charset=utf-8")
        } else if head.method != .GET && head.method != .HEAD {
            (status, body) = (.methodNotAllowed, Array("use GET\n".utf8))
            headers.add(name: "content-type", value: "text/plain; charset=utf-8")
            headers.add(name: "allow", value: "GET, HEAD")
        } else {
            (status, body) = (.ok, registry.emitToBuffer())
            headers.add(name: "content-type", value: "text/plain; version=0.0.4; charset=utf-8")
        }
        headers.add(name: "content-length", value: String(body.count))
        let keepAlive = head.isKeepAlive
        if !keepAlive { headers.add(name: "connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        if head.method != .HEAD {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            if !keepAlive { context.close(promise: nil) }
        }
    }
}
