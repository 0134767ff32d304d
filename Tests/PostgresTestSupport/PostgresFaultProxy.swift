import Foundation
import NIOCore
import NIOPosix
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP proxy in front of a test cluster that breaks connections on cue: when a client sends a
/// statement that contains an armed fault's trigger (`BEGIN`, `COMMIT`, `INSERT INTO
/// category`, …), that statement is held back, never reaching PostgreSQL, and the fault's
/// action happens instead. It can also refuse new connections the way a server starting up
/// does, or stop listening altogether.
///
/// Clients reach it at `url(database:)` (TCP on 127.0.0.1); it forwards to the cluster's Unix
/// socket. Everything else passes through untouched.
package final class PostgresFaultProxy: Sendable {
    /// What happens when a fault fires.
    package enum Action: Sendable, Equatable {
        /// `pg_terminate_backend` on the connection's server process: PostgreSQL itself answers
        /// with FATAL 57P01 and closes the connection.
        case terminateBackend
        /// Both sides closed, with no message.
        case closeConnection
        /// The client's socket reset (RST): a channel error on its side.
        case resetConnection
        /// Nothing more passes either way, and nothing is closed: a server gone silent.
        case stall
        /// An ErrorResponse of severity FATAL with `sqlState`, as PostgreSQL sends one, then
        /// both sides closed.
        case fatal(sqlState: String, message: String)
    }

    /// A fault that fires on the next `times` statements containing `trigger` (case
    /// insensitive), on any connection.
    package struct Fault: Sendable {
        package var trigger: String
        package var action: Action
        package var times: Int

        package init(on trigger: String, _ action: Action, times: Int = 1) {
            self.trigger = trigger
            self.action = action
            self.times = times
        }
    }

    private struct State {
        var armed: Fault?
        var fired: [String] = []
        var refusal: (sqlState: String, message: String)?
        var listener: (any Channel)?
        var connections: [ObjectIdentifier: ProxiedConnection] = [:]
    }

    package let cluster: PostgresCluster
    /// The proxy's port on 127.0.0.1.
    package let port: Int
    private let state = Mutex(State())
    private let group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton

    /// Starts a proxy in front of `cluster`.
    package static func start(for cluster: PostgresCluster) async throws -> PostgresFaultProxy {
        try await PostgresFaultProxy(cluster: cluster)
    }

    private init(cluster: PostgresCluster) async throws {
        self.cluster = cluster
        // Listening at once on the port the kernel picks: a probe closed before listening again
        // would leave the port for another test to take meanwhile.
        let acceptor = Acceptor()
        let listener = try await Self.bind(port: 0, group: group) { acceptor.accept($0) }
        port = listener.localAddress?.port ?? 0
        acceptor.forward(to: { [weak self] channel in
            if let self { self.accept(channel) } else { channel.close(promise: nil) }
        })
        state.withLock { $0.listener = listener }
    }

    /// Hands the connections of the first listener, made before the proxy is, to the proxy.
    private final class Acceptor: Sendable {
        private let target = Mutex<(@Sendable (any Channel) -> Void)?>(nil)

        func forward(to accept: @escaping @Sendable (any Channel) -> Void) {
            target.withLock { $0 = accept }
        }

        func accept(_ channel: any Channel) {
            if let accept = target.withLock({ $0 }) { accept(channel) } else { channel.close(promise: nil) }
        }
    }

    /// The `--database` URL of database `name` through the proxy.
    package func url(database name: String = "catalog") -> String {
        "postgresql://\(cluster.user)@127.0.0.1:\(port)/\(name)"
    }

    /// Arms `fault`, replacing any armed one.
    package func arm(_ fault: Fault) {
        state.withLock { $0.armed = fault }
    }

    /// The triggers of the faults that fired so far, in order.
    package var fired: [String] { state.withLock { $0.fired } }

    /// From now on, answers new connections' start-up with an ErrorResponse FATAL `sqlState`
    /// and closes them, as a server starting up or in recovery does (57P03); `nil` lets them
    /// through again.
    package func refuseNewConnections(sqlState: String?, message: String = "the database system is starting up") {
        state.withLock { $0.refusal = sqlState.map { ($0, message) } }
    }

    /// Closes every proxied connection at once, with no message.
    package func closeAllConnections() {
        for connection in state.withLock({ Array($0.connections.values) }) { connection.close() }
    }

    /// Stops listening: new connections are refused by the kernel (ECONNREFUSED).
    package func stopListening() async throws {
        let listener = state.withLock { state in
            defer { state.listener = nil }
            return state.listener
        }
        try await listener?.close()
    }

    /// Listens again, on the same port.
    package func startListening() async throws {
        let listener = try await Self.bind(port: port, group: group) { [self] channel in accept(channel) }
        state.withLock { $0.listener = listener }
    }

    /// Closes everything.
    package func stop() async {
        try? await stopListening()
        closeAllConnections()
    }

    private static func bind(
        port: Int, group: any EventLoopGroup, accept: @escaping @Sendable (any Channel) -> Void
    ) async throws -> any Channel {
        try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.autoRead, value: true)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { accept(channel) }
            }
            .bind(host: "127.0.0.1", port: port)
            .get()
    }

    // MARK: Connections

    private func accept(_ client: any Channel) {
        let connection = ProxiedConnection(client: client, proxy: self)
        state.withLock { $0.connections[ObjectIdentifier(connection)] = connection }
        client.closeFuture.whenComplete { [self] _ in
            _ = state.withLock { $0.connections.removeValue(forKey: ObjectIdentifier(connection)) }
        }
        try? client.pipeline.syncOperations.addHandler(FrontendHandler(connection: connection))
    }

    /// The refusal to answer a new connection's start-up with, if any.
    fileprivate var refusal: (sqlState: String, message: String)? { state.withLock { $0.refusal } }

    /// The armed fault if `query` triggers it, disarmed and recorded as fired.
    fileprivate func fault(for query: String) -> Fault? {
        let statement = query.uppercased()
        return state.withLock { state in
            guard var armed = state.armed, statement.contains(armed.trigger.uppercased()) else { return nil }
            armed.times -= 1
            state.armed = armed.times > 0 ? armed : nil
            state.fired.append(armed.trigger)
            return armed
        }
    }

    /// Connects `connection` to the cluster, on its client's event loop.
    fileprivate func connectUpstream(for connection: ProxiedConnection) -> EventLoopFuture<any Channel> {
        ClientBootstrap(group: connection.client.eventLoop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(BackendHandler(connection: connection)) }
            }
            .connect(unixDomainSocketPath: "\(cluster.directory)/.s.PGSQL.\(cluster.port)")
    }

    fileprivate func terminateBackend(pid: Int32) {
        // psql waits for its process: off the event loop.
        Thread { [cluster] in _ = try? cluster.psql("SELECT pg_terminate_backend(\(pid))") }.start()
    }
}

/// One client's connection and its upstream, both on the client's event loop and touched only there.
private final class ProxiedConnection: @unchecked Sendable {
    let client: any Channel
    let proxy: PostgresFaultProxy
    var upstream: (any Channel)?
    /// Client bytes waiting for the upstream connection.
    var pending: [ByteBuffer] = []
    /// The server process, from BackendKeyData.
    var backendPID: Int32?
    /// Set once a fault fired: no more client bytes go upstream.
    var holding = false
    /// Set by `stall`: no more server bytes reach the client either.
    var stalled = false

    init(client: any Channel, proxy: PostgresFaultProxy) {
        self.client = client
        self.proxy = proxy
    }

    func close() {
        client.eventLoop.execute { [self] in
            client.close(promise: nil)
            upstream?.close(promise: nil)
        }
    }

    /// A whole message from the client (the start-up message first).
    func received(_ message: ByteBuffer, isStartup: Bool, query: String?) {
        if isStartup, let refusal = proxy.refusal {
            client.writeAndFlush(ErrorResponse.fatal(sqlState: refusal.sqlState, message: refusal.message)).whenComplete { _ in
                self.client.close(promise: nil)
            }
            return
        }
        if isStartup { return connect(first: message) }
        guard !holding else { return }
        if let query, let fault = proxy.fault(for: query) { return perform(fault.action) }
        forward(message)
    }

    private func connect(first message: ByteBuffer) {
        pending.append(message)
        proxy.connectUpstream(for: self).whenComplete { [self] result in
            switch result {
            case .success(let upstream):
                self.upstream = upstream
                upstream.closeFuture.whenComplete { _ in self.client.close(promise: nil) }
                for buffer in pending { upstream.write(buffer, promise: nil) }
                pending = []
                upstream.flush()
            case .failure:
                client.close(promise: nil)
            }
        }
    }

    private func forward(_ message: ByteBuffer) {
        if let upstream {
            upstream.writeAndFlush(message, promise: nil)
        } else {
            pending.append(message)
        }
    }

    /// Bytes from the server.
    func fromServer(_ bytes: ByteBuffer) {
        client.eventLoop.execute { [self] in
            guard !stalled else { return }
            client.writeAndFlush(bytes, promise: nil)
        }
    }

    private func perform(_ action: PostgresFaultProxy.Action) {
        holding = true
        switch action {
        case .terminateBackend:
            // PostgreSQL's FATAL and close come back through the upstream, and end the client.
            if let backendPID { proxy.terminateBackend(pid: backendPID) } else { close() }
        case .closeConnection:
            close()
        case .resetConnection:
            guard let socket = client as? any SocketOptionProvider else { return close() }
            socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in self.close() }
        case .stall:
            stalled = true
        case .fatal(let sqlState, let message):
            client.writeAndFlush(ErrorResponse.fatal(sqlState: sqlState, message: message)).whenComplete { _ in self.close() }
        }
    }
}

/// Cuts the client's byte stream into messages: the start-up message (a length, then its
/// body), then typed ones (a type byte, a length that counts itself, the body).
private final class FrontendHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    let connection: ProxiedConnection
    private var buffer: ByteBuffer?
    private var startupSeen = false

    init(connection: ProxiedConnection) {
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if buffer == nil { buffer = bytes } else { buffer!.writeBuffer(&bytes) }
        while let message = nextMessage() {
            connection.received(message.bytes, isStartup: message.isStartup, query: message.query)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection.close()
    }

    private func nextMessage() -> (bytes: ByteBuffer, isStartup: Bool, query: String?)? {
        guard var buffer else { return nil }
        let headerLength = startupSeen ? 5 : 4
        guard buffer.readableBytes >= headerLength else { return nil }
        let lengthOffset = buffer.readerIndex + (startupSeen ? 1 : 0)
        guard let length = buffer.getInteger(at: lengthOffset, as: Int32.self) else { return nil }
        let total = Int(length) + (startupSeen ? 1 : 0)
        guard buffer.readableBytes >= total, let message = buffer.readSlice(length: total) else { return nil }
        self.buffer = buffer
        let isStartup = !startupSeen
        // An SSLRequest (code 80877103) is not the start-up message: it is refused with 'N'.
        if isStartup, length == 8, message.getInteger(at: message.readerIndex + 4, as: Int32.self) == 80_877_103 {
            connection.client.writeAndFlush(ByteBuffer(string: "N"), promise: nil)
            return nextMessage()
        }
        startupSeen = true
        return (message, isStartup, isStartup ? nil : Self.query(in: message))
    }

    /// The statement text of a Parse ('P': name, then the query) or Query ('Q') message.
    private static func query(in message: ByteBuffer) -> String? {
        var message = message
        guard let type = message.readInteger(as: UInt8.self), message.readInteger(as: Int32.self) != nil else { return nil }
        switch type {
        case UInt8(ascii: "P"):
            _ = message.readNullTerminatedString()
            return message.readNullTerminatedString()
        case UInt8(ascii: "Q"):
            return message.readNullTerminatedString()
        default:
            return nil
        }
    }
}

/// Relays the server's bytes to the client, reading its BackendKeyData on the way.
private final class BackendHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    let connection: ProxiedConnection
    private var startup: ByteBuffer? = ByteBuffer()

    init(connection: ProxiedConnection) {
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        if startup != nil { scanStartup(bytes) }
        connection.fromServer(bytes)
    }

    /// Reads messages until ReadyForQuery, keeping the backend's process id.
    private func scanStartup(_ bytes: ByteBuffer) {
        var bytes = bytes
        startup!.writeBuffer(&bytes)
        while var buffer = startup, buffer.readableBytes >= 5,
            let type = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self),
            let length = buffer.getInteger(at: buffer.readerIndex + 1, as: Int32.self),
            buffer.readableBytes >= Int(length) + 1
        {
            var message = buffer.readSlice(length: Int(length) + 1)!
            startup = buffer
            if type == UInt8(ascii: "K") {
                message.moveReaderIndex(forwardBy: 5)
                let pid = message.readInteger(as: Int32.self)
                connection.backendPID = pid
            } else if type == UInt8(ascii: "Z") {
                startup = nil
            }
        }
    }
}

/// PostgreSQL's ErrorResponse.
private enum ErrorResponse {
    static func fatal(sqlState: String, message: String) -> ByteBuffer {
        var body = ByteBuffer()
        for (field, value) in [("S", "FATAL"), ("V", "FATAL"), ("C", sqlState), ("M", message)] {
            body.writeString(field)
            body.writeNullTerminatedString(value)
        }
        body.writeInteger(UInt8(0))
        var message = ByteBuffer()
        message.writeString("E")
        message.writeInteger(Int32(body.readableBytes + 4))
        message.writeBuffer(&body)
        return message
    }
}
