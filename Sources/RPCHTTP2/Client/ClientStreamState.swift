import NIOCore
import RPCCore

/// One outbound call on the connection's event loop: request body, response headers,
/// deframer and the call bridge it feeds. Touched only on the event loop.
final class ClientStreamState {
    var id: Int32 = 0
    /// The caller's side until the call ends; then let go, since the call holds this state too.
    private var call: ClientCall?
    private var headers: HeaderList
    private var sawResponseHeaders = false
    private var inbound: InboundBody
    private let maxMessageSize: Int
    private let compression: CompressionAlgorithm
    private var outbound = OutboundBody()
    private(set) var requestEnded = false
    private(set) var finished = false
    var deadlineTimer: Scheduled<Void>?

    /// The largest response header list kept (RFC 9113 size); past it the call fails.
    static let maxHeaderListSize = 64 * 1024

    init(call: ClientCall, compression: CompressionAlgorithm, maxMessageSize: Int, maxHeaderListSize: Int) {
        self.call = call
        self.compression = compression
        self.headers = HeaderList(limit: maxHeaderListSize)
        self.maxMessageSize = maxMessageSize
        self.inbound = InboundBody(MessageDeframer(maxMessageSize: maxMessageSize))
    }

    // MARK: Request

    /// Queues a request message; `writer` goes on at once, or once the server has read enough.
    func enqueue(
        _ message: [UInt8], framed: Bool, endOfStream: Bool, session: NGHTTP2Session,
        writer: CheckedContinuation<Void, any Error>, highWatermark: Int
    ) {
        if framed {
            outbound.append(message)
        } else {
            outbound.appendMessage(message, compression: compression)
        }
        if endOfStream { requestEnded = true }
        outbound.wake(streamID: id, session: session)
        outbound.admit(writer, highWatermark: highWatermark)
    }

    func readData(into buffer: UnsafeMutableRawBufferPointer, lowWatermark: Int) -> DataRead {
        let count = outbound.read(into: buffer, lowWatermark: lowWatermark)
        if outbound.isEmpty && requestEnded { return .bytes(count: count, endOfData: true, endStream: true) }
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
        if !sawResponseHeaders {
            sawResponseHeaders = true
            if let error = Self.responseError(headers) {
                finish(error)
                return
            }
            if let encoding = headers.first("grpc-encoding") {
                guard let algorithm = CompressionAlgorithm(headerValue: encoding) else {
                    finish(RPCError(.internalError, "the server used an unsupported grpc-encoding '\(encoding)'"))
                    return
                }
                inbound = InboundBody(MessageDeframer(maxMessageSize: maxMessageSize, compression: algorithm))
            }
            call?.setInitialMetadata(Metadata(headerFields: headers.fields))
            if !endStream { return }  // trailers-only otherwise: the same block holds the status
        }
        guard endStream else { return }
        let trailers = ResponseTrailers(headerFields: headers.fields)
        call?.setTrailingMetadata(trailers.metadata)
        if let error = trailers.error {
            finish(error)
        } else {
            do {
                try inbound.checkEndOfStream()
                finish(nil)
            } catch {
                finish(error)
            }
        }
    }

    /// Takes body bytes; returns how many bytes flow control may credit back now.
    func receiveData(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard !finished, let call else { return bytes.count }
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
        guard !finished else { return }
        finished = true
        deadlineTimer?.cancel()
        // Let go of the call before waking its reader, who may then check that it is freed.
        let mailbox = call?.mailbox
        call = nil
        mailbox?.finish(error)
        outbound.failWriter(error ?? RPCError(.cancelled, "the call ended"))
    }

    /// The stream closed; without trailers that is an error named by the reset code.
    func closed(errorCode: UInt32) {
        let error: RPCError =
            switch errorCode {
            case HTTP2ErrorCode.refusedStream: RPCError(.unavailable, "the server refused the stream")
            case HTTP2ErrorCode.cancel: RPCError(.cancelled, "the server cancelled the stream")
            case HTTP2ErrorCode.enhanceYourCalm: RPCError(.resourceExhausted, "the server asked to calm down")
            default: RPCError(.internalError, "the stream closed without a status (HTTP/2 error \(errorCode))")
            }
        finish(error)
    }

    /// The error a response's first header block stands for, if any.
    static func responseError(_ headers: HeaderList) -> RPCError? {
        let status = headers.first(":status") ?? ""
        guard status == "200" else {
            let code: StatusCode =
                switch status {
                case "400": .internalError
                case "401": .unauthenticated
                case "403": .permissionDenied
                case "404": .unimplemented
                case "429", "502", "503", "504": .unavailable
                default: .unknown
                }
            let message = headers.first("grpc-message").map(PercentEncoding.decode) ?? ""
            return RPCError(code, "HTTP status \(status)\(message.isEmpty ? "" : ": \(message)")")
        }
        let contentType = headers.first("content-type") ?? ""
        guard contentType.hasPrefix("application/grpc") else {
            return RPCError(.internalError, "unexpected response content-type '\(contentType)'")
        }
        return nil
    }
}
