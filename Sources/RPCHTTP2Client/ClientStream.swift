import NIOCore
import RPCCore
import RPCFraming
import RPCHTTP2Core

/// One outbound call on the connection's event loop: request body, response headers,
/// deframer and the call bridge it feeds. Its `StateMachine` decides what each event means;
/// the stream does what it answers. Touched only on the event loop.
final class ClientStream {
    var id: Int32 = 0
    /// The caller's side until the call ends; then let go, since the call holds this state too.
    private var call: ClientCall?
    private var headers: HeaderList
    var machine = StateMachine()
    private var inbound: InboundBody
    private let maxMessageSize: Int
    private let compression: CompressionAlgorithm
    private var outbound = OutboundBody()
    var deadlineTimer: Scheduled<Void>?

    /// The largest response header list kept (RFC 9113 size); past it the call fails.
    static let maxHeaderListSize = 64 * 1024

    init(call: ClientCall, compression: CompressionAlgorithm, maxMessageSize: Int, maxHeaderListSize: Int) {
        self.call = call
        self.compression = compression
        self.headers = HeaderList(limit: maxHeaderListSize)
        self.maxMessageSize = maxMessageSize
        self.inbound = InboundBody(.envelopes, maxMessageSize: maxMessageSize, compression: .identity)
    }

    // MARK: Request

    /// Queues a request message that its caller counted as `counted` bytes (it tells the call
    /// when its framed size differs: compressed).
    func enqueue(_ message: [UInt8], framed: Bool, endOfStream: Bool, counted: Int, session: NGHTTP2Session) {
        if framed {
            outbound.append(message)
        } else {
            let size = outbound.appendMessage(message, compression: compression)
            if size != counted { call?.requestBytesLeft(counted - size) }
        }
        machine.messageQueued(endOfStream: endOfStream)
        outbound.wake(streamID: id, session: session)
    }

    func readData(into buffer: UnsafeMutableRawBufferPointer, lowWatermark: Int) -> DataRead {
        let count = outbound.read(into: buffer, lowWatermark: lowWatermark)
        if count > 0 { call?.requestBytesLeft(count) }
        if outbound.isEmpty && machine.requestEnded { return .bytes(count: count, endOfData: true, endStream: true) }
        return outbound.answer(count)
    }

    // MARK: Response

    func beginHeaders() {
        headers = HeaderList(limit: headers.limit)
    }

    func appendHeader(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        headers.append(name: name, value: value)
    }

    /// A header block ended: the response headers, or the trailers (`endStream`).
    func headersEnded(endStream: Bool) {
        switch machine.receivedHeaders(headers, endStream: endStream) {
        case .none:
            break
        case .receiveMessages(let initialMetadata, let compression):
            if compression != .identity {
                inbound = InboundBody(.envelopes, maxMessageSize: maxMessageSize, compression: compression)
            }
            call?.setInitialMetadata(initialMetadata)
        case .end(let initialMetadata, let trailers):
            if let initialMetadata { call?.setInitialMetadata(initialMetadata) }
            call?.setTrailingMetadata(trailers.metadata)
            if let error = trailers.error {
                release(error)
            } else {
                do {
                    try inbound.end { _ in false }
                    release(nil)
                } catch {
                    release(error)
                }
            }
        case .fail(let error):
            release(error)
        }
    }

    /// Takes body bytes; returns how many bytes flow control may credit back now.
    func receiveData(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard !machine.isFinished, let call else { return bytes.count }
        do {
            return try inbound.receive(bytes) { call.mailbox.deliver($0) }
        } catch {
            finish(error)
            return bytes.count
        }
    }

    func takeWithheldBytes() -> Int {
        inbound.takeWithheldBytes()
    }

    /// Ends the call for the reader; `nil` is a clean end. Later ends are ignored.
    func finish(_ error: RPCError?) {
        guard machine.end() else { return }
        release(error)
    }

    /// The stream closed; without trailers that is an error named by the reset code.
    func closed(errorCode: UInt32) {
        guard let error = machine.streamClosed(errorCode: errorCode) else { return }
        release(error)
    }

    /// Tells the reader how the call ended and lets go of the call and the request's writer.
    private func release(_ error: RPCError?) {
        deadlineTimer?.cancel()
        // Let go of the call before waking its reader, who may then check that it is freed.
        let ending = call
        call = nil
        ending?.mailbox.finish(error)
        ending?.sendingEnded(error ?? RPCError(.cancelled, "the call has ended"))
    }
}
