#if ClientTLS
import NIOCore
import NIOTLS
import RPCHTTP2TLS

/// Waits for a client connection's TLS handshake, behind the `NIOSSLClientHandler`: once the
/// server agreed to ALPN `h2`, it puts the HTTP/2 handler in its place and succeeds `ready`;
/// it fails `ready` and closes the connection when the handshake fails, the server picks no
/// protocol or another one, or the handshake takes longer than `timeout`.
final class ClientTLSHandshakeHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private let connectionHandler: ClientConnectionHandler
    private let timeout: Duration
    private var ready: EventLoopPromise<Void>?
    private var timer: Scheduled<Void>?

    init(connectionHandler: ClientConnectionHandler, timeout: Duration, ready: EventLoopPromise<Void>) {
        self.connectionHandler = connectionHandler
        self.timeout = timeout
        self.ready = ready
    }

    func handlerAdded(context: ChannelHandlerContext) {
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(timeout)) { [self] in
            fail(context, "the TLS handshake did not finish within \(timeout)")
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        fail(context, "the connection closed during the TLS handshake")
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(context, "the server closed the connection during the TLS handshake")
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case TLSUserEvent.handshakeCompleted(let negotiatedProtocol) = event else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        guard negotiatedProtocol == "h2" else {
            fail(context, "the server does not speak HTTP/2 over TLS: it chose ALPN \(negotiatedProtocol ?? "none"), not h2")
            return
        }
        do {
            try context.pipeline.syncOperations.addHandler(connectionHandler, position: .after(self))
        } catch {
            fail(context, "cannot start HTTP/2: \(error)")
            return
        }
        let ready = self.ready
        self.ready = nil
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        ready?.succeed()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(context, "TLS handshake failed: \(TLSFailure(error, peer: "server"))")
    }

    /// Fails `ready` with UNAVAILABLE `message` (once) and closes the connection.
    private func fail(_ context: ChannelHandlerContext, _ message: String) {
        guard let ready else { return }
        self.ready = nil
        timer?.cancel()
        ready.fail(HandshakeError(message: message))
        context.close(promise: nil)
    }

    /// Why the connection could not be set up, in words.
    struct HandshakeError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
#endif
