import NIOCore
import RPCCore

/// One request stream on the connection's event loop: its headers, deframer, response
/// buffer and the call bridge it feeds. Touched only on the event loop.
final class ServerStreamState {
    let id: Int32
    var headers: HeaderList
    private(set) var call: ServerCall?
    private var deframer: MessageDeframer?
    private var responseCompression = CompressionAlgorithm.identity
    private var contentType = ContentType.grpc

    private var outbound = OutboundBuffer()
    private var trailers: [(name: String, value: String)]?
    private var responseStarted = false
    private(set) var finished = false
    private var requestEnded = false
    private var waitingForData = false
    private var writeWaiter: CheckedContinuation<Void, any Error>?
    private var withheldBytes = 0
    private var deadlineTimer: Scheduled<Void>?

    init(id: Int32, maxHeaderListSize: Int) {
        self.id = id
        self.headers = HeaderList(limit: maxHeaderListSize)
    }

    /// Whether a handler is attached and the stream still carries its call.
    var isActive: Bool { call != nil && !finished }

    // MARK: Request side

    /// Attaches the call that will run for this stream.
    func start(_ accepted: RequestValidation.Accepted, call: ServerCall, maxMessageSize: Int) {
        self.call = call
        self.contentType = accepted.head.contentType
        self.responseCompression = accepted.responseCompression
        deframer = MessageDeframer(maxMessageSize: maxMessageSize, compression: accepted.requestCompression)
    }

    func armDeadline(on eventLoop: any EventLoop, at deadline: ContinuousClock.Instant, connection: ServerConnectionHandler) {
        let remaining = ContinuousClock.now.duration(to: deadline)
        let nanoseconds = max(0, remaining.components.seconds * 1_000_000_000 + remaining.components.attoseconds / 1_000_000_000)
        deadlineTimer = eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(nanoseconds)) { [weak self] in
            guard let self, !self.finished else { return }
            connection.finish(self, lastMessage: nil, initialMetadata: [:],
                              trailers: ResponseTrailers(code: .deadlineExceeded, message: "deadline exceeded"))
            self.call?.abort.fire()
        }
    }

    /// Takes body bytes; returns how many bytes flow control may credit back now.
    func receiveData(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let call, !requestEnded, !finished, deframer != nil else { return bytes.count }
        do {
            try deframer!.append(bytes)
            var backlog = false
            while let message = try deframer!.next() {
                backlog = call.mailbox.deliver(message) || backlog
            }
            if backlog {
                withheldBytes += bytes.count
                return 0
            }
        } catch {
            requestEnded = true
            call.mailbox.finish(error)
        }
        return bytes.count
    }

    /// Flow-control credit withheld while the reader was behind.
    func takeWithheldBytes() -> Int {
        defer { withheldBytes = 0 }
        return withheldBytes
    }

    /// The client half-closed the stream.
    func receiveEndOfStream() {
        guard let call, !requestEnded else { return }
        requestEnded = true
        do {
            try deframer?.checkEndOfStream()
            call.mailbox.finish(nil)
        } catch {
            call.mailbox.finish(error)
        }
    }

    // MARK: Response side

    func responseHeaders(_ initialMetadata: Metadata) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = [(":status", "200"), ("content-type", contentType.headerValue)]
        if responseCompression != .identity { fields.append(("grpc-encoding", responseCompression.name)) }
        fields.append(("grpc-accept-encoding", CompressionAlgorithm.acceptEncodingHeader))
        fields.append(contentsOf: initialMetadata.headerFields)
        return fields
    }

    /// Queues one response message; returns whether the writer may go on at once.
    func enqueue(_ message: [UInt8], session: NGHTTP2Session, initialMetadata: Metadata, highWatermark: Int) -> Bool {
        if !responseStarted {
            responseStarted = true
            _ = session.submitResponse(streamID: id, headers: responseHeaders(initialMetadata), hasBody: true)
        }
        outbound.append(MessageFramer.frame(message, compression: responseCompression))
        wake(session)
        return outbound.byteCount <= highWatermark
    }

    func parkWriter(_ continuation: CheckedContinuation<Void, any Error>) {
        writeWaiter = continuation
    }

    /// Ends the response: last message, then trailers (or a trailers-only answer).
    func finish(lastMessage: [UInt8]?, initialMetadata: Metadata, trailers: ResponseTrailers, session: NGHTTP2Session) {
        guard !finished else { return }
        finished = true
        deadlineTimer?.cancel()
        if !responseStarted && lastMessage == nil {
            responseStarted = true
            let fields = [(":status", "200"), ("content-type", contentType.headerValue)] + trailers.headerFields
            // No RST_STREAM after it: nghttp2 would drop the queued HEADERS. Request bytes
            // that still arrive are credited and discarded.
            _ = session.submitResponse(streamID: id, headers: fields, hasBody: false)
            return
        }
        if !responseStarted {
            responseStarted = true
            _ = session.submitResponse(streamID: id, headers: responseHeaders(initialMetadata), hasBody: true)
        }
        if let lastMessage { outbound.append(MessageFramer.frame(lastMessage, compression: responseCompression)) }
        self.trailers = trailers.headerFields
        wake(session)
    }

    /// Answers nghttp2's body read.
    func readData(into buffer: UnsafeMutableRawBufferPointer, session: NGHTTP2Session, lowWatermark: Int) -> DataRead {
        let count = outbound.read(into: buffer)
        if outbound.byteCount <= lowWatermark, let writer = writeWaiter {
            writeWaiter = nil
            writer.resume()
        }
        if outbound.isEmpty, let trailers {
            session.submitTrailers(streamID: id, headers: trailers)
            self.trailers = nil
            return .bytes(count: count, endOfData: true, endStream: false)
        }
        if count == 0 {
            waitingForData = true
            return .deferred
        }
        return .bytes(count: count, endOfData: false, endStream: false)
    }

    /// The stream is gone (reset, closed, connection lost): stop the call.
    func close() {
        deadlineTimer?.cancel()
        outbound.removeAll()
        let cancelled = RPCError(.cancelled, "the stream was closed")
        writeWaiter?.resume(throwing: cancelled)
        writeWaiter = nil
        if !requestEnded {
            requestEnded = true
            call?.mailbox.finish(cancelled)
        }
        if !finished {
            finished = true
            call?.abort.fire()
        }
    }

    private func wake(_ session: NGHTTP2Session) {
        if waitingForData {
            waitingForData = false
            session.resumeData(streamID: id)
        }
    }
}
