import Logging
import NIOCore
import NIOEmbedded
import NIOTLS
import RPCCore
import TestSupport
import Testing

@testable import RPCCallLayer
@testable import RPCHTTP2

/// The handler that stands behind `NIOSSLServerHandler` until the handshake is done, driven
/// with TLS events on an `EmbeddedChannel` (no socket, no TLS).
@Suite("Server TLS handshake guard")
struct ServerTLSHandshakeHandlerTests {
    @Test("ALPN h2 puts the HTTP/2 connection handler in its place, which sends its SETTINGS")
    func h2StartsHTTP2() throws {
        let channel = try Self.guardedChannel()
        defer { _ = try? channel.finish() }
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil, "nothing before the handshake")

        channel.pipeline.fireUserInboundEventTriggered(TLSUserEvent.handshakeCompleted(negotiatedProtocol: "h2"))
        #expect(throws: (any Error).self) { try channel.pipeline.syncOperations.handler(type: ServerTLSHandshakeHandler.self) }
        _ = try channel.pipeline.syncOperations.handler(type: ServerConnectionHandler.self)
        let settings = try #require(try channel.readOutbound(as: ByteBuffer.self))
        #expect(settings.getInteger(at: 3, as: UInt8.self) == 0x4, "a SETTINGS frame")
        #expect(channel.isActive)
    }

    @Test("ALPN http/1.1 puts the HTTP/1.1 front end in its place")
    func http1StartsHTTP1() throws {
        let channel = try Self.guardedChannel()
        defer { _ = try? channel.finish() }
        channel.pipeline.fireUserInboundEventTriggered(TLSUserEvent.handshakeCompleted(negotiatedProtocol: "http/1.1"))
        #expect(throws: (any Error).self) { try channel.pipeline.syncOperations.handler(type: ServerTLSHandshakeHandler.self) }
        _ = try channel.pipeline.syncOperations.handler(type: HTTP1ConnectionHandler.self)
        #expect(channel.isActive)
    }

    @Test("no ALPN protocol, or another one, closes the connection", arguments: [nil, "spdy/3.1"])
    func otherProtocolCloses(negotiated: String?) throws {
        let channel = try Self.guardedChannel()
        channel.pipeline.fireUserInboundEventTriggered(TLSUserEvent.handshakeCompleted(negotiatedProtocol: negotiated))
        #expect(!channel.isActive)
        #expect(throws: (any Error).self) { try channel.pipeline.syncOperations.handler(type: ServerConnectionHandler.self) }
    }

    @Test("a handshake not finished within the timeout closes the connection, not a moment before")
    func timeoutCloses() throws {
        let channel = try Self.guardedChannel(timeout: .seconds(10))
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(9_999))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(!channel.isActive)
    }

    @Test("a handshake done in time cancels the timeout")
    func handshakeCancelsTimeout() throws {
        let channel = try Self.guardedChannel(timeout: .seconds(10))
        defer { _ = try? channel.finish() }
        channel.pipeline.fireUserInboundEventTriggered(TLSUserEvent.handshakeCompleted(negotiatedProtocol: "h2"))
        channel.embeddedEventLoop.advanceTime(by: .seconds(11))
        #expect(channel.isActive)
    }

    @Test("a graceful shutdown during the handshake closes the connection")
    func shutdownCloses() throws {
        let channel = try Self.guardedChannel()
        channel.pipeline.fireUserInboundEventTriggered(ServerConnectionHandler.GracefulShutdownEvent())
        #expect(!channel.isActive)
    }

    /// An active channel whose only handler is the guard.
    private static func guardedChannel(timeout: Duration = .seconds(10)) throws -> EmbeddedChannel {
        let logger = quietLogger()
        let starter = FrontEndStarter(
            configuration: .defaults, router: Router(), tasks: ConnectionTasks(), logger: logger, metrics: ServerMetrics(router: Router()),
            refusal: nil, warnings: WarningThrottle(), bufferPool: BufferedBytesPool(limit: 1 << 20), headDeadline: nil)
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 50051)).wait()
        try channel.pipeline.syncOperations.addHandler(
            ServerTLSHandshakeHandler(timeout: timeout, logger: logger, start: starter.start))
        return channel
    }
}
