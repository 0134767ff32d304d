import Logging
import NIOCore
import RPCHTTP2TLS
import NIOTLS

/// Guards a TLS connection until its handshake is done, behind the `NIOSSLServerHandler`:
/// once the client negotiated ALPN `h2` or `http/1.1`, it puts that version's front end in its
/// place (`start`); a failed handshake, no protocol, a handshake that takes longer than the
/// timeout, or a graceful shutdown before the end of the handshake closes the connection.
final class ServerTLSHandshakeHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private let start: (ChannelHandlerContext, HTTPVersionDetector.Version) throws -> Void
    private let timeout: Duration
    private var logger: Logger
    private var timer: Scheduled<Void>?

    /// - Parameter start: adds the front end for the negotiated version after this handler.
    init(timeout: Duration, logger: Logger, start: @escaping (ChannelHandlerContext, HTTPVersionDetector.Version) throws -> Void) {
        self.start = start
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
            let version: HTTPVersionDetector.Version
            switch negotiatedProtocol {
            case "h2": version = .http2
            case "http/1.1": version = .http1
            default:
                logger.notice(
                    "closing connection: the client negotiated neither HTTP/2 nor HTTP/1.1 (ALPN h2, http/1.1)",
                    metadata: ["alpn": "\(negotiatedProtocol ?? "none")"])
                context.close(promise: nil)
                return
            }
            do {
                try start(context, version)
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
