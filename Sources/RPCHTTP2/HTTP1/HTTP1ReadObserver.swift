import NIOCore
import NIOHTTP1

/// Sits before the HTTP/1.1 decoder and tells the connection handler what the decoder does not:
/// that bytes arrived, so that a request head that starts and never ends is noticed (the
/// decoder says nothing until a head is complete), and that a chunk declared a size over the
/// message limit (`HTTP1ChunkScanner`), whose bytes are then not decoded: the handler answers
/// it 413.
final class HTTP1ReadObserver: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let handler: HTTP1ConnectionHandler
    private var chunks: HTTP1ChunkScanner

    /// - Parameter maxChunkSize: the largest chunk a request may declare.
    init(handler: HTTP1ConnectionHandler, maxChunkSize: Int) {
        self.handler = handler
        self.chunks = HTTP1ChunkScanner(maxChunkSize: maxChunkSize)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        handler.bytesArrived()
        let oversized = unwrapInboundIn(data).withUnsafeReadableBytes { chunks.scan($0) }
        guard oversized == nil else {
            // Through swift-nio's pipelining handler as the decoder's own errors go, so that
            // it lets the answer out whether or not a request head came before.
            handler.chunkOverLimit = true
            context.fireErrorCaught(HTTPParserError.invalidChunkSize)
            return
        }
        context.fireChannelRead(data)
    }
}
