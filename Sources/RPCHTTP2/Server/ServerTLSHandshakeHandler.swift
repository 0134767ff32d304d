import Logging
import NIOCore
import NIOTLS

/// Guards a TLS connection until its handshake is done, behind the `NIOSSLServerHandler`:
/// once the client negotiated ALPN `h2`, it puts the HTTP/2 connection handler in its place;
/// a failed handshake, another protocol (or none), a handshake that takes longer than the
/// timeout, or a graceful shutdown before the end of the handshake closes the connection.
final class ServerTLSHandshakeHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private let connectionHandler: ServerConnectionHandler
    private let timeout: Duration
    private var logger: Logger
    private var timer: Scheduled<Void>?

    init(connectionHandler: ServerConnectionHandler, timeout: Duration, logger: Logger) {
        self.connectionHandler = connectionHandler
        self.timeout = timeout
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard timer == nil else { return }
        logger[metadataKey: "peer"] = "\(context.channel.remoteAddress?.description ?? "unknown")"
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(timeout)) { [self] in
            logger.notice("closing connection: TLS handshake not finished", metadata: ["timeout": "\(timeout)"])
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case TLSUserEvent.handshakeCompleted(let negotiatedProtocol):
            timer?.cancel()
            guard negotiatedProtocol == "h2" else {
                logger.notice(
                    "closing connection: the client did not negotiate HTTP/2 (ALPN h2)",
                    metadata: ["alpn": "\(negotiatedProtocol ?? "none")"])
                context.close(promise: nil)
                return
            }
            do {
                try context.pipeline.syncOperations.addHandler(connectionHandler, position: .after(self))
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            } catch {
                logger.notice("closing connection: cannot start HTTP/2", metadata: ["error": "\(error)"])
                context.close(promise: nil)
            }
        case is ServerConnectionHandler.GracefulShutdownEvent:
            context.close(promise: nil)
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let failure = TLSFailure(error, peer: "client")
        logger.log(
            level: failure.isPeerGone ? .debug : .notice, "closing connection: TLS handshake failed",
            metadata: ["error": "\(failure.description)"])
        context.close(promise: nil)
    }
}
