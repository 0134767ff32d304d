import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Prometheus
import ServiceLifecycle

/// `--metrics-address`: serves `GET /metrics`, the registry in the Prometheus text format
/// 0.0.4, over plain HTTP/1.1, until graceful shutdown or cancellation.
final class MetricsEndpoint: Service, Sendable {
    private let registry: PrometheusCollectorRegistry
    private let address: ListenAddress
    private let bound: EventLoopPromise<SocketAddress>

    init(registry: PrometheusCollectorRegistry, address: ListenAddress) {
        self.registry = registry
        self.address = address
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
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
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
}

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
