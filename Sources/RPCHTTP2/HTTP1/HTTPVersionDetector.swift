import NIOCore

/// Tells HTTP/2 from HTTP/1.1 on a cleartext connection by its first bytes: the HTTP/2
/// connection preface, or anything else. Then it puts the front end for that version in its
/// place (`start`) and hands it the bytes read so far.
///
/// The server's graceful shutdown closes a connection that has sent nothing yet, as the TLS
/// handshake handler closes one still shaking hands. One that has sent part of the preface is
/// told of the shutdown once its front end started, which then drains it like any other: the
/// event would otherwise pass this handler by, and the connection would hold the shutdown open.
final class HTTPVersionDetector: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// An HTTP version a connection speaks.
    enum Version {
        case http1
        case http2
    }

    private static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    private var received: ByteBuffer?
    /// The server began its graceful shutdown before the version was known.
    private var shutdownRequested = false
    private let start: (ChannelHandlerContext, Version) throws -> Void

    /// - Parameter start: adds the front end for the version after this handler.
    init(start: @escaping (ChannelHandlerContext, Version) throws -> Void) {
        self.start = start
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        if var received {
            received.writeBuffer(&buffer)
            self.received = received
        } else {
            received = buffer
        }
        guard let bytes = received?.readableBytesView else { return }
        let count = min(bytes.count, Self.preface.count)
        let version: Version
        if bytes.prefix(count).elementsEqual(Self.preface.prefix(count)) {
            guard count == Self.preface.count else { return }  // a prefix of the preface: wait for more
            version = .http2
        } else {
            version = .http1
        }
        do {
            try start(context, version)
        } catch {
            context.close(promise: nil)
            return
        }
        let bytesRead = received
        received = nil
        if let bytesRead { context.fireChannelRead(wrapInboundOut(bytesRead)) }
        context.fireChannelReadComplete()
        if shutdownRequested { context.fireUserInboundEventTriggered(ServerConnectionHandler.GracefulShutdownEvent()) }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ServerConnectionHandler.GracefulShutdownEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        if received == nil {
            context.close(promise: nil)
        } else {
            shutdownRequested = true
        }
    }
}
