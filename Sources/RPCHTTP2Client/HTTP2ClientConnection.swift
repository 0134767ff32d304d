import NIOCore
import NIOPosix
#if ClientTLS
import NIOSSL
import RPCHTTP2TLS
#endif
import RPCCore
import RPCHTTP2Core

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
    /// The `content-type` its calls send (`HTTP2ClientConfiguration.contentType`).
    public let contentType: String
    /// The codec the content type names.
    public let messageCodec: any MessageCodec

    private init(channel: any Channel, handler: NIOLoopBound<ClientConnectionHandler>, configuration: HTTP2ClientConfiguration) {
        self.channel = channel
        self.handler = handler
        self.contentType = configuration.contentType
        self.messageCodec = configuration.resolvedContentType?.codec ?? JSONCodec.shared
    }

    /// Connects to `host:port`: over cleartext HTTP/2 with prior knowledge, or over TLS with
    /// ALPN `h2` when `configuration.tls` is set, in which case it returns once the handshake
    /// is done.
    ///
    /// - Throws: `RPCError` UNAVAILABLE when the server cannot be reached, the TLS handshake
    ///   fails (the message says why: an untrusted certificate, a server without TLS…), or a
    ///   TLS file cannot be read.
    public static func connect(
        host: String,
        port: Int,
        configuration: HTTP2ClientConfiguration = .defaults,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws(RPCError) -> HTTP2ClientConnection {
        #if ClientTLS
        let tls: TLSSetup?
        do {
            tls = try configuration.tls.map { settings throws(TLSFileError) in
                TLSSetup(context: try settings.makeContext(), serverName: settings.serverName(connectingTo: host))
            }
        } catch {
            throw RPCError(.unavailable, "cannot connect to \(host):\(port): \(error)")
        }
        #else
        guard configuration.tls == nil else {
            throw RPCError(.unavailable, "cannot connect to \(host):\(port) over TLS: this build has no TLS (the package's ClientTLS trait is off)")
        }
        let tls: TLSSetup? = nil
        #endif
        do {
            let (channel, handler, ready) = try await ClientBootstrap(group: eventLoopGroup)
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .connectTimeout(TimeAmount(configuration.connectTimeout))
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let handler = ClientConnectionHandler(configuration: configuration, authority: "\(host):\(port)")
                        let ready = try addHandlers(handler, to: channel, tls: tls, timeout: configuration.connectTimeout)
                        return (channel, NIOLoopBound(handler, eventLoop: channel.eventLoop), ready)
                    }
                }
            try await ready?.get()
            return HTTP2ClientConnection(channel: channel, handler: handler, configuration: configuration)
        } catch {
            throw RPCError(.unavailable, "cannot connect to \(host):\(port): \(error)")
        }
    }

    /// Puts `handler` on `channel`, behind TLS when `tls` is given; the future tells when the
    /// TLS handshake is done (`nil`: no TLS, nothing to wait for).
    private static func addHandlers(
        _ handler: ClientConnectionHandler, to channel: any Channel, tls: TLSSetup?, timeout: Duration
    ) throws -> EventLoopFuture<Void>? {
        guard let tls else {
            try channel.pipeline.syncOperations.addHandler(handler)
            return nil
        }
        #if ClientTLS
        let ready = channel.eventLoop.makePromise(of: Void.self)
        try channel.pipeline.syncOperations.addHandlers(
            NIOSSLClientHandler(context: tls.context, serverHostname: tls.serverName),
            ClientTLSHandshakeHandler(connectionHandler: handler, timeout: timeout, ready: ready))
        return ready.futureResult
        #else
        switch tls {}
        #endif
    }

    #if ClientTLS
    /// A TLS connection's context and the name its server's certificate must carry.
    private struct TLSSetup {
        let context: NIOSSLContext
        let serverName: String?
    }
    #else
    /// Nothing: without the `ClientTLS` trait every connection is cleartext.
    private enum TLSSetup {}
    #endif

    public func openCall(_ method: MethodDescriptor, options: CallOptions) async throws(RPCError) -> any ClientCallStream {
        let eventLoop = channel.eventLoop
        let handler = self.handler
        do {
            return try await eventLoop.submit {
                let call = ClientCall(
                    connection: handler.value, eventLoop: eventLoop, highWatermark: handler.value.configuration.streamWriteBufferSize)
                try handler.value.open(call, method: method, options: options)
                return call
            }.get()
        } catch {
            throw RPCError(mapping: error)
        }
    }

    /// Calls `body` once the connection has closed, whoever closed it; at once if it has.
    public func whenClosed(_ body: @escaping @Sendable () -> Void) {
        channel.closeFuture.whenComplete { _ in body() }
    }

    /// Sends GOAWAY, lets open calls finish, then closes the connection. With a
    /// `gracePeriod`, calls still open after it end with `error` (by default CANCELLED), their
    /// streams reset, and the connection closes then.
    public func close(
        gracePeriod: Duration? = nil,
        error: RPCError = RPCError(.cancelled, "the connection was closed before the call ended")
    ) async {
        let handler = self.handler
        let eventLoop = channel.eventLoop
        let deadline: Scheduled<Void>? = try? await eventLoop.submit {
            handler.value.beginClose()
            return gracePeriod.map { grace in
                eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(grace)) { handler.value.closeNow(error) }
            }
        }.get()
        try? await channel.closeFuture.get()
        deadline?.cancel()
    }
}
