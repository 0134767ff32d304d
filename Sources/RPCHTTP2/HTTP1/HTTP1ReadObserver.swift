import NIOCore

/// Sits before the HTTP/1.1 decoder and tells the connection handler that bytes arrived, so
/// that a request head that starts and never ends is noticed (the decoder says nothing until
/// a head is complete).
final class HTTP1ReadObserver: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let handler: HTTP1ConnectionHandler

    init(handler: HTTP1ConnectionHandler) {
        self.handler = handler
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        handler.bytesArrived()
        context.fireChannelRead(data)
    }
}
