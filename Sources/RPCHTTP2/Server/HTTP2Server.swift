import Logging
import NIOCore
import NIOPosix
import NIOSSL
import RPCCore
import ServiceLifecycle
import Synchronization

/// Serves a `Router` over HTTP/2 through nghttp2: h2c with prior knowledge, or TLS with ALPN
/// `h2` when `configuration.tls` is set.
///
/// `run()` listens until graceful shutdown (ServiceLifecycle, or `beginGracefulShutdown()`):
/// then it stops accepting, sends GOAWAY on every connection, lets in-flight calls finish
/// within the grace period, and returns.
///
/// ```swift
/// var router = Router()
/// router.register(HealthService())
/// let server = HTTP2Server(router: router, configuration: .defaults, logger: logger)
/// try await server.run()
/// ```
public final class HTTP2Server: Service, Sendable {
    private let router: Router
    private let configuration: HTTP2ServerConfiguration
    private let logger: Logger
    private let eventLoopGroup: any EventLoopGroup
    private let address: EventLoopPromise<SocketAddress>
    private let metrics: ServerMetrics
    /// Warnings that peers can provoke at will, rate-limited across all connections.
    private let warnings = WarningThrottle()
    private let state: Mutex<State>

    private struct State {
        var listener: (any Channel)?
        /// Every open connection, refused ones included.
        var connections: [ObjectIdentifier: any Channel] = [:]
        var admission: ConnectionAdmission
    }

    /// Refused connections answered at once (`HTTP2ServerConfiguration.refusedConnectionTimeout`).
    private static let maxRefusedConnections = 1024

    /// Makes the server and its metrics (`rpc_server_*`, see the README), with the swift-metrics
    /// factory in force now: bootstrap `MetricsSystem` first to collect them.
    public init(
        router: Router,
        configuration: HTTP2ServerConfiguration = .defaults,
        logger: Logger = Logger(label: "rpc.server"),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.router = router
        self.configuration = configuration
        self.logger = logger
        self.eventLoopGroup = eventLoopGroup
        self.address = eventLoopGroup.any().makePromise()
        self.metrics = ServerMetrics(router: router)
        self.state = Mutex(State(admission: ConnectionAdmission(
            maxConnections: configuration.maxConnections, maxPerPeer: configuration.maxConnectionsPerPeer,
            maxRefusing: Self.maxRefusedConnections)))
    }

    /// The address the server listens on, once it does (with the real port when 0 was asked).
    /// Throws when binding failed.
    public var listeningAddress: SocketAddress {
        get async throws { try await address.futureResult.get() }
    }

    /// Listens and serves until graceful shutdown or cancellation.
    public func run() async throws {
        let listener: NIOAsyncChannel<ServerConnection, Never>
        do {
            listener = try await bind()
        } catch {
            address.fail(error)
            throw error
        }
        let stop = state.withLock { state -> Bool in
            state.listener = listener.channel
            return state.admission.shuttingDown
        }
        address.succeed(listener.channel.localAddress!)
        if stop { listener.channel.close(promise: nil) }

        try await withGracefulShutdownHandler {
            try await withTaskCancellationHandler {
                try await listener.executeThenClose { connections in
                    try await withThrowingDiscardingTaskGroup { group in
                        for try await connection in connections {
                            group.addTask(executorPreference: connection.executor) { await connection.run() }
                        }
                    }
                }
            } onCancel: {
                self.closeAllConnections()
            }
        } onGracefulShutdown: {
            self.beginGracefulShutdown()
        }
        logger.info("server stopped")
    }

    /// Stops accepting connections and drains the open ones; `run()` returns when they closed.
    public func beginGracefulShutdown() {
        let (listener, connections) = state.withLock { state in
            state.admission.shuttingDown = true
            return (state.listener, Array(state.connections.values))
        }
        listener?.close(promise: nil)
        for channel in connections {
            channel.pipeline.fireUserInboundEventTriggered(ServerConnectionHandler.GracefulShutdownEvent())
        }
    }

    private func closeAllConnections() {
        let (listener, connections) = state.withLock { ($0.listener, Array($0.connections.values)) }
        listener?.close(promise: nil)
        for channel in connections { channel.close(promise: nil) }
    }

    private func bind() async throws -> NIOAsyncChannel<ServerConnection, Never> {
        try await ServerBootstrap(group: eventLoopGroup)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            // One read per connection per turn of the event loop: a peer that keeps its socket
            // full (a flood, oversized headers) then holds the loop for one buffer, not 16,
            // before the loop's other connections are read; and each read's answers are
            // flushed before the next read.
            .childChannelOption(.maxMessagesPerRead, value: 1)
            .bind(host: configuration.host, port: configuration.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try self.accept(channel)
                }
            }
    }

    /// Sets up a new connection: served, refused past a connection limit (answered, then
    /// closed), or closed at once during shutdown.
    private func accept(_ channel: any Channel) throws -> ServerConnection {
        let (calls, continuation) = AsyncStream<ServerCall>.makeStream()
        let connection = ServerConnection(calls: calls, executor: EventLoopTaskExecutor(channel.eventLoop))
        let id = ObjectIdentifier(channel)
        let peer = channel.remoteAddress?.ipAddress ?? "unknown"
        let decision = state.withLock { state in
            let decision = state.admission.admit(peer: peer)
            if decision != .dropped { state.connections[id] = channel }
            return decision
        }
        var refusal: ConnectionRefusal?
        switch decision {
        case .admitted:
            metrics.connections.increment()
        case .refused(let reason):
            warnings.warning("refusing connection", metadata: ["peer": "\(peer)", "reason": "\(reason.message)"], on: logger)
            metrics.refused(reason)
            refusal = reason
            continuation.finish()
        case .dropped:
            warnings.warning(
                "closing a new connection at once (shutting down, or too many refused connections)",
                metadata: ["peer": "\(peer)"], on: logger)
            continuation.finish()
            channel.close(promise: nil)
            return connection
        }
        channel.closeFuture.whenComplete { _ in
            self.state.withLock { state in
                state.connections.removeValue(forKey: id)
                state.admission.closed(decision, peer: peer)
            }
            if decision == .admitted { self.metrics.connections.decrement() }
            // Also when the connection closed before HTTP/2 started (a failed TLS handshake).
            continuation.finish()
        }
        let handler = ServerConnectionHandler(
            configuration: configuration,
            router: router,
            calls: continuation,
            logger: logger,
            metrics: metrics,
            refusal: refusal,
            warnings: warnings
        )
        if let tls = configuration.tls {
            try channel.pipeline.syncOperations.addHandlers(
                NIOSSLServerHandler(context: tls.currentContext),
                ServerTLSHandshakeHandler(connectionHandler: handler, timeout: configuration.tlsHandshakeTimeout, logger: logger))
        } else {
            try channel.pipeline.syncOperations.addHandler(handler)
        }
        return connection
    }
}

/// The calls of one connection, run as child tasks on the connection's event loop until it closes.
struct ServerConnection: Sendable {
    let calls: AsyncStream<ServerCall>
    let executor: EventLoopTaskExecutor

    func run() async {
        await withDiscardingTaskGroup { group in
            // A call reset, timed out or cut off before its turn is already answered or gone:
            // it gets no task, so a rapid-reset flood costs no handler.
            for await call in calls where !call.abort.hasFired {
                group.addTask { await call.route.run(call) }
            }
        }
    }
}
