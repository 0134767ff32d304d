import Logging
import NIOCore
import NIOPosix
import NIOSSL
import RPCCallLayer
import RPCCore
import RPCHTTP2Core
import ServiceLifecycle
import Synchronization

/// Serves a `Router` on one port: gRPC, gRPC-Web and Connect over HTTP/2 through nghttp2 (h2c
/// with prior knowledge, or TLS with ALPN `h2` when `configuration.tls` is set), and gRPC-Web
/// and Connect over HTTP/1.1 (a cleartext connection that does not open with the HTTP/2
/// preface, or ALPN `http/1.1`).
///
/// `run()` listens until graceful shutdown (ServiceLifecycle, or `beginGracefulShutdown()`):
/// then it stops accepting, sends GOAWAY on every connection, lets in-flight calls finish
/// within the grace period, answers those still running then with UNAVAILABLE and cancels
/// their handlers, and returns, without waiting for a handler that ignores cancellation. Its
/// last log line, `server stopped`, counts those calls (`calls_cut`).
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
    private let tasks = ConnectionTasks()
    /// What all connections hold for unfinished calls (`HTTP2ServerConfiguration.maxBufferedBytes`).
    private let bufferPool: BufferedBytesPool

    private struct State {
        var listener: (any Channel)?
        /// Every open connection, refused ones included.
        var connections: [ObjectIdentifier: any Channel] = [:]
        var admission: ConnectionAdmission
        /// Set once the listener closed: `tasks` finishes when the last connection closes too.
        var listenerClosed = false
    }

    /// Refused connections answered at once (`HTTP2ServerConfiguration.refusedConnectionTimeout`).
    private static let maxRefusedConnections = 1024

    /// Makes the server and its metrics (`rpc_server_*`, see docs/operations.md), with the swift-metrics
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
        self.bufferPool = BufferedBytesPool(limit: configuration.maxBufferedBytes)
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
    /// Connections served now (refused ones not counted).
    package var admittedConnectionCount: Int { state.withLock { $0.admission.open } }

    public func run() async throws {
        let listener: any Channel
        do {
            listener = try await bind()
        } catch {
            address.fail(error)
            throw error
        }
        let stop = state.withLock { state -> Bool in
            state.listener = listener
            return state.admission.shuttingDown
        }
        address.succeed(listener.localAddress!)
        listener.closeFuture.whenComplete { _ in
            self.finishTasksIfDone { $0.listenerClosed = true }
        }
        if stop { listener.close(promise: nil) }

        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                // Ends once the listener and every connection closed.
                for await connection in tasks.connections {
                    tasks.run(connection)
                }
                await tasks.waitForRunningConnections()
            } onCancel: {
                self.closeAllConnections()
            }
        } onGracefulShutdown: {
            self.beginGracefulShutdown()
        }
        logger.info("server stopped", metadata: ["calls_cut": "\(tasks.callsCut)"])
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
        tasks.closedByForce()
        let (listener, connections) = state.withLock { ($0.listener, Array($0.connections.values)) }
        listener?.close(promise: nil)
        for channel in connections { channel.close(promise: nil) }
    }

    /// Applies `change`, then stops running connections if the listener and every connection closed.
    private func finishTasksIfDone(_ change: (inout State) -> Void) {
        let done = state.withLock { state in
            change(&state)
            return state.listenerClosed && state.connections.isEmpty
        }
        if done { tasks.finish() }
    }

    private func bind() async throws -> any Channel {
        try await ServerBootstrap(group: eventLoopGroup)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // One accept per turn of the listener's event loop: a flood of new connections then
            // waits in the kernel's backlog, not in front of the calls of open connections.
            .serverChannelOption(.maxMessagesPerRead, value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            // One read per connection per turn of the event loop: a peer that keeps its socket
            // full (a flood, oversized headers) then holds the loop for one buffer, not 16,
            // before the loop's other connections are read; and each read's answers are
            // flushed before the next read.
            .childChannelOption(.maxMessagesPerRead, value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try self.accept(channel)
                }
            }
            .bind(host: configuration.host, port: configuration.port)
            .get()
    }

    /// Sets up a new connection: served, refused past a connection limit (answered, then
    /// closed), or closed at once during shutdown.
    private func accept(_ channel: any Channel) throws {
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
        case .dropped:
            warnings.warning(
                "closing a new connection at once (shutting down, or too many refused connections)",
                metadata: ["peer": "\(peer)"], on: logger)
            channel.close(promise: nil)
            return
        }
        channel.closeFuture.whenComplete { _ in
            if decision == .admitted { self.metrics.connections.decrement() }
            self.finishTasksIfDone { state in
                state.connections.removeValue(forKey: id)
                state.admission.closed(decision, peer: peer)
            }
        }
        let headDeadline = configuration.requestHeadTimeout.map { bound in
            RequestHeadDeadline(bound: bound, channel: channel) { [logger, metrics, warnings] in
                metrics.closed(.headTimeout)
                warnings.warning(
                    "closing connection: no complete request head in time", metadata: ["peer": "\(peer)", "timeout": "\(bound)"],
                    on: logger)
            }
        }
        let starter = FrontEndStarter(
            configuration: configuration, router: router, tasks: tasks, logger: logger, metrics: metrics, refusal: refusal,
            warnings: warnings, bufferPool: bufferPool, headDeadline: headDeadline)
        if let tls = configuration.tls {
            try channel.pipeline.syncOperations.addHandlers(
                NIOSSLServerHandler(context: tls.currentContext),
                ServerTLSHandshakeHandler(timeout: configuration.tlsHandshakeTimeout, logger: logger, start: starter.start))
        } else {
            try channel.pipeline.syncOperations.addHandler(HTTPVersionDetector(start: starter.start))
        }
    }
}
