import NIOCore
import NIOPosix
import RPCCore

/// One HTTP/2 connection to a server, multiplexing every call made through it.
///
/// ```swift
/// let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: 50051)
/// let client = RPCClient(transport: connection)
/// let status = try await client.unary(Health.check, HealthCheckRequest())
/// await connection.close()
/// ```
public final class HTTP2ClientConnection: ClientTransport, Sendable {
    private let channel: any Channel
    private let handler: NIOLoopBound<ClientConnectionHandler>

    private init(channel: any Channel, handler: NIOLoopBound<ClientConnectionHandler>) {
        self.channel = channel
        self.handler = handler
    }

    /// Connects to `host:port` over cleartext HTTP/2 with prior knowledge.
    public static func connect(
        host: String,
        port: Int,
        configuration: HTTP2ClientConfiguration = .defaults,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws(RPCError) -> HTTP2ClientConnection {
        do {
            let (channel, handler) = try await ClientBootstrap(group: eventLoopGroup)
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .connectTimeout(TimeAmount(configuration.connectTimeout))
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let handler = ClientConnectionHandler(configuration: configuration, authority: "\(host):\(port)")
                        try channel.pipeline.syncOperations.addHandler(handler)
                        return (channel, NIOLoopBound(handler, eventLoop: channel.eventLoop))
                    }
                }
            return HTTP2ClientConnection(channel: channel, handler: handler)
        } catch {
            throw RPCError(.unavailable, "cannot connect to \(host):\(port): \(error)")
        }
    }

    public func openCall(_ method: MethodDescriptor, options: CallOptions) async throws(RPCError) -> any ClientCallStream {
        let eventLoop = channel.eventLoop
        let handler = self.handler
        do {
            return try await eventLoop.submit {
                let call = ClientCall(connection: handler.value, eventLoop: eventLoop)
                try handler.value.open(call, method: method, options: options)
                return call
            }.get()
        } catch {
            throw RPCError(mapping: error)
        }
    }

    /// Sends GOAWAY, lets open calls finish, then closes the connection.
    public func close() async {
        let handler = self.handler
        channel.eventLoop.execute { handler.value.beginClose() }
        try? await channel.closeFuture.get()
    }
}
