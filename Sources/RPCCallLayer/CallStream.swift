import RPCCore
import RPCFraming

/// One call on a connection's loop, whatever the protocol: its request headers,
/// deframer, response buffer and the handler it feeds (a task's `ServerCall`, or an inline
/// request, then its `InlineCall`). Its `StateMachine` decides what each event means; the
/// stream does what it answers, and leaves to its connection's `CallFrontEnd` what only the
/// HTTP version knows (sending a head, trailers or a reset). Touched only on the loop, so
/// its stored properties skip run-time exclusivity checks (see `ServerConnectionHandler`).
package final class CallStream {
    package let id: Int32
    @exclusivity(unchecked) var headers: RequestHeaders
    @exclusivity(unchecked) private(set) var machine = StateMachine()
    @exclusivity(unchecked) private(set) var call: ServerCall?
    /// The request of an inline call (`Route.runsInline`) as it arrives.
    @exclusivity(unchecked) private var inline: InlineRequest?
    /// The task of an inline call's handler, while it has not answered (it suspended).
    @exclusivity(unchecked) private var inlineTask: Task<Void, Never>?
    @exclusivity(unchecked) private var inbound: InboundBody?
    /// How the response goes on the wire, by the call's protocol.
    @exclusivity(unchecked) private var framing = ResponseFraming(contentType: .grpc, compression: .identity, detailNames: .generic)
    /// CORS fields every response head of this call carries (`CORSPolicy`); usually none.
    @exclusivity(unchecked) var corsFields: [(name: String, value: String)] = []
    /// A Connect unary call's response message, held until its status is known (`ResponseFraming.headWaitsForEnd`).
    @exclusivity(unchecked) private var heldMessage: [UInt8]?

    @exclusivity(unchecked) private var outbound = OutboundBody()
    /// The connection's read (its count of reads so far) that brought this stream's request head.
    package let openedInRead: UInt64
    /// The bytes the connection counts this stream as holding (see `heldBytes`).
    @exclusivity(unchecked) var accountedBytes = 0
    @exclusivity(unchecked) var timeouts = TimeoutSweep()
    @exclusivity(unchecked) private var deadlineTimer: (any CallTimer)?
    /// The pulled source of the rest of the response, once the call attached one.
    @exclusivity(unchecked) private var source: (any ResponseSource)?
    @exclusivity(unchecked) private var sourceMetadata = Metadata()
    /// When the request's headers began; `nil` when nothing records durations.
    private let openedAt: ContinuousClock.Instant?
    /// The metrics of the call's method, once its path is known.
    @exclusivity(unchecked) private var metrics: MethodMetrics?
    private let accessLog: AccessLog?
    /// What the access log will say about this call; `nil` when access logging is off.
    @exclusivity(unchecked) private var accessEntry: AccessLogEntry?

    /// - Parameters:
    ///   - recent: what the connection keeps of its previous request (see `RequestHeaders`).
    ///   - timed: whether the call's duration is recorded (metrics that record, or an access log).
    init(id: Int32, openedInRead: UInt64, maxHeaderListSize: Int, recent: RequestHeaders.Recent, timed: Bool, accessLog: AccessLog?) {
        self.id = id
        self.openedAt = timed ? .now : nil
        self.openedInRead = openedInRead
        self.headers = RequestHeaders(limit: maxHeaderListSize, recent: recent)
        self.accessLog = accessLog
        if accessLog != nil { accessEntry = AccessLogEntry() }
    }

    /// The request's headers, moved out (the stream keeps an empty list): read once the call starts.
    /// Appends a request header field as nghttp2 hands it over.
    package func appendHeader(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        headers.append(name: name, value: value)
    }

    /// Appends a request header field a front end has as text.
    package func appendHeader(name: String, value: String) {
        headers.append(name: name, value: value)
    }

    func takeHeaders() -> RequestHeaders {
        var taken = RequestHeaders(limit: 0)
        swap(&taken, &headers)
        return taken
    }

    /// Whether the call's method takes a stream of request messages (client streaming or
    /// bidirectional): set when it starts.
    @exclusivity(unchecked) private(set) var takesRequestStream = false

    /// Whether the call started and has not finished its response: its handler may still send.
    var isActive: Bool { machine.isStarted && !machine.isFinished }

    /// Bytes the stream holds for its call: request bytes not yet made into messages and
    /// response bytes not yet sent.
    var heldBytes: Int { (inbound?.bufferedByteCount ?? 0) + outbound.count }

    /// Response bytes queued and not yet read out by the front end.
    package var queuedResponseBytes: Int { outbound.count }

    /// Whether response bytes wait to be sent.
    var responseWaiting: Bool { outbound.count > 0 }

    /// Whether the call started: its request head was complete (a later header block is trailers).
    package var isStarted: Bool { machine.isStarted }

    /// Whether the whole response went to the front end, trailers included.
    var responseComplete: Bool {
        guard case .ended = machine.response else { return false }
        return outbound.count == 0
    }

    // MARK: Request side

    /// Starts the call: in `call`'s task, or inline when `call` is `nil` (see
    /// `answerInlineCall`); `metrics` are its method's.
    func start(
        _ accepted: RequestValidation.Accepted, call: ServerCall?, maxMessageSize: Int, detailNames: ErrorDetailNames, metrics: MethodMetrics
    ) {
        machine.callStarted()
        takesRequestStream = accepted.route.descriptor.kind.clientStreaming
        self.call = call
        if call == nil { inline = InlineRequest(route: accepted.route, head: accepted.head) }
        self.metrics = metrics
        self.framing = ResponseFraming(
            contentType: accepted.head.contentType, compression: accepted.responseCompression, detailNames: detailNames)
        inbound = InboundBody(accepted.requestShape, maxMessageSize: maxMessageSize, compression: accepted.requestCompression)
        if let message = accepted.queryMessage { inbound?.preload(message) }
        accessEntry?.path = accepted.head.path
        accessEntry?.caller = accepted.caller
        if accessEntry != nil, let traceParent = accepted.head.metadata.first(TraceParent.headerName) {
            accessEntry?.traceID = TraceParent(traceParent)?.traceID
        }
    }

    /// The call was answered before it started (`RequestValidation.Rejected`); `metrics` are
    /// those of the method at `path`.
    func rejected(
        _ rejected: RequestValidation.Rejected, path: String, detailNames: ErrorDetailNames, metrics: MethodMetrics,
        frontEnd: any CallFrontEnd
    ) {
        let answer = rejected.answer(detailNames: detailNames)
        if let contentType = rejected.contentType {
            framing = ResponseFraming(contentType: contentType, compression: .identity, detailNames: detailNames)
        }
        machine.answeredBeforeStart(withBody: answer.body != nil)
        self.metrics = metrics
        accessEntry?.path = path
        accessEntry?.caller = rejected.caller
        recordEnd(rejected.trailers.code)
        sendHead(answer.head, hasBody: answer.body != nil, frontEnd: frontEnd)
        if let body = answer.body {
            outbound.append(body)
            wakeBody(frontEnd)
        }
    }

    func armDeadline(on loop: any CallLoop, at deadline: ContinuousClock.Instant, connection: ConnectionCalls) {
        // The longest `grpc-timeout` (99999999H) is past what a loop can schedule: its
        // timer is clamped, and then simply never fires.
        // Strongly: a weak reference would put every retain of this stream on the slow path.
        // The timer is cancelled when the call ends or its stream closes, which lets go of it.
        deadlineTimer = loop.schedule(after: ContinuousClock.now.duration(to: deadline)) { [self] in
            connection.endCall(self, ResponseTrailers(code: .deadlineExceeded, message: "deadline exceeded"))
        }
    }

    /// Takes body bytes; returns how many bytes flow control may credit back now.
    func receiveData(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard machine.takesRequestBody else { return bytes.count }
        accessEntry?.requestBytes += bytes.count
        do {
            if let call {
                return try inbound!.receive(bytes) { call.mailbox.deliver($0) }
            }
            return try inbound!.receive(bytes) { message in
                inline?.take(message)
                return false
            }
        } catch {
            endRequest(error)
            return bytes.count
        }
    }

    /// Flow-control credit withheld while the reader was behind.
    func takeWithheldBytes() -> Int {
        inbound?.takeWithheldBytes() ?? 0
    }

    /// The client half-closed the stream.
    func receiveEndOfStream() {
        guard machine.clientEndedStream() else { return }
        do {
            if let call {
                try inbound?.end { call.mailbox.deliver($0) }
            } else {
                try inbound?.end { message in
                    inline?.take(message)
                    return false
                }
            }
            endRequest(nil)
        } catch {
            endRequest(error)
        }
    }

    /// The request ended: cleanly (`nil`) or with the status the call must end with.
    private func endRequest(_ error: RPCError?) {
        guard machine.requestEnded() else { return }
        call?.mailbox.finish(error)
        inline?.failure = error
    }

    /// Whether an inline call waits for its handler and its request is complete: ended,
    /// failed, or holding more than one message.
    var inlineRequestIsComplete: Bool {
        guard !machine.isFinished, let more = inline?.more else { return false }
        return machine.request == .ended || more
    }

    /// Starts an inline call's handler once its request is complete (`inlineRequestIsComplete`),
    /// here, on the loop. A handler written without `async` answers before this returns,
    /// with no task (`Route.answersImmediately`); any other runs in a task that runs here until
    /// it first suspends (`executor` keeps it on this loop after that), so one that does not
    /// suspend has answered through `responder` when this returns too. A subscription's source
    /// is attached at once, and `wakeQueue` pulls it when it wakes.
    func startInlineCall(on connection: ConnectionCalls, frontEnd: any CallFrontEnd, wakeQueue: SourceWakeQueue, loop: any CallLoop) {
        // Moved out, not copied: a copy retains every field of the request and its route.
        guard inlineRequestIsComplete, let request = inline.take() else { return }
        if let failure = request.failure {
            finish(lastMessage: nil, initialMetadata: [:], trailers: ResponseTrailers(error: failure), frontEnd: frontEnd)
            return
        }
        let route = request.route
        guard route.answersImmediately else {
            let responder = CallResponder(stream: self, connection: connection, wakeQueue: wakeQueue, loop: loop)
            let call = InlineCall(head: request.head, first: request.first, second: request.second, streamID: id, responder: responder)
            let task = Task.immediate(executorPreference: loop.taskExecutor) { await route.serve(call) }
            // Kept only while the handler has not answered, for an abort to cancel it.
            if !machine.isFinished, source == nil { inlineTask = task }
            return
        }
        let answer = route.answer(request: request.first, more: request.more, head: request.head) { [id] in
            ResponseWaker { wakeQueue.wake(id) }
        }
        switch answer {
        case .finished(let message, let initialMetadata, let trailers):
            finish(lastMessage: message, initialMetadata: initialMetadata, trailers: trailers, frontEnd: frontEnd)
        case .source(let source, let initialMetadata):
            attach(source, initialMetadata: initialMetadata, frontEnd: frontEnd, highWatermark: connection.configuration.streamWriteBufferSize)
        }
    }

    // MARK: Response side

    /// Sends a response head, with the call's CORS fields.
    private func sendHead(_ head: ResponseHead, hasBody: Bool, frontEnd: any CallFrontEnd) {
        guard !corsFields.isEmpty else { return frontEnd.sendResponseHead(head, of: self, hasBody: hasBody) }
        let fields =
            switch head {
            case .plain(let contentType): ResponseFraming.plainHeadFields(contentType)
            case .fields(let fields): fields
            }
        frontEnd.sendResponseHead(.fields(fields + corsFields), of: self, hasBody: hasBody)
    }

    /// Answers a CORS preflight with `fields`, `:status` first; no call runs.
    func answerPreflight(_ fields: [(name: String, value: String)], frontEnd: any CallFrontEnd) {
        machine.answeredBeforeStart()
        frontEnd.sendResponseHead(.fields(fields), of: self, hasBody: false)
    }

    /// Answers a `GET` of an `HTTPResource` with `fields`, `:status` first, and `body`; no call runs.
    func answerResource(_ fields: [(name: String, value: String)], body: [UInt8]?, frontEnd: any CallFrontEnd) {
        machine.answeredBeforeStart(withBody: body != nil)
        sendHead(.fields(fields), hasBody: body != nil, frontEnd: frontEnd)
        if let body {
            outbound.append(body)
            wakeBody(frontEnd)
        }
    }

    /// Tells the front end that body bytes wait, if a read found none before.
    private func wakeBody(_ frontEnd: any CallFrontEnd) {
        if outbound.takeDeferred() { frontEnd.resumeResponseBody(of: self) }
    }

    /// Queues one response message; `writer` goes on at once, or once the peer has read enough.
    func enqueue(
        _ message: [UInt8], frontEnd: any CallFrontEnd, initialMetadata: Metadata,
        writer: CheckedContinuation<Void, any Error>, highWatermark: Int
    ) {
        queueMessage(message, initialMetadata: initialMetadata, frontEnd: frontEnd)
        wakeBody(frontEnd)
        outbound.admit(writer, highWatermark: highWatermark)
    }

    /// Hands the response to `source` and pulls what it has.
    func attach(_ source: any ResponseSource, initialMetadata: Metadata, frontEnd: any CallFrontEnd, highWatermark: Int) {
        guard !machine.isFinished else {
            source.streamClosed()
            return
        }
        self.source = source
        sourceMetadata = initialMetadata
        pullSource(frontEnd: frontEnd, highWatermark: highWatermark)
    }

    /// Queues what the attached source has, while at most `highWatermark` bytes wait.
    func pullSource(frontEnd: any CallFrontEnd, highWatermark: Int) {
        pull: while let source, !machine.isFinished, outbound.count <= highWatermark {
            switch source.next() {
            case .message(let message):
                queueMessage(message, initialMetadata: sourceMetadata, frontEnd: frontEnd)
            case .idle:
                break pull
            case .end(let trailers):
                finish(lastMessage: nil, initialMetadata: sourceMetadata, trailers: trailers, frontEnd: frontEnd)
            }
        }
        wakeBody(frontEnd)
    }

    /// The response needs neither its deadline nor its source any more.
    private func stopDeadlineAndSource() {
        deadlineTimer?.cancel()
        guard let source else { return }
        self.source = nil
        source.streamClosed()
    }

    /// Queues one response message, after the response head when it is the first; a Connect
    /// unary answer's is held until the call ends.
    private func queueMessage(_ message: [UInt8], initialMetadata: Metadata, frontEnd: any CallFrontEnd) {
        if framing.headWaitsForEnd {
            heldMessage = message
            return
        }
        if machine.messageQueued() { submitResponseHeaders(frontEnd, initialMetadata) }
        appendResponse(message)
    }

    /// Frames one response message into the outbound buffer.
    private func appendResponse(_ message: [UInt8]) {
        let framed = framing.envelope(message)
        if framing.isText {
            outbound.append(Array(Base64.encode(framed.bytes).utf8))
        } else {
            outbound.append(framed)
        }
        accessEntry?.responseMessages += 1
        accessEntry?.responseBytes += framed.count
    }

    /// Queues bytes that end the body (a trailer frame, an end-of-stream envelope, a unary body).
    private func appendBodyEnd(_ bytes: [UInt8]) {
        outbound.append(framing.isText ? Array(Base64.encode(bytes).utf8) : bytes)
    }

    /// Records the call's end before it reaches the peer (once: when the state machine says
    /// so): its method's metrics (when the call got as far as a path) and the access log entry.
    private func recordEnd(_ code: StatusCode) {
        guard let openedAt else { return }
        let duration = openedAt.duration(to: .now)
        metrics?.record(code, after: duration, framing: framing.contentType.framing)
        guard let accessLog, var entry = accessEntry else { return }
        entry.requestMessages = inbound?.messageCount ?? 0
        accessLog.write(entry, code: code, duration: duration)
    }

    /// Sends the response head; the body follows from `readBody`.
    private func submitResponseHeaders(_ frontEnd: any CallFrontEnd, _ initialMetadata: Metadata) {
        sendHead(framing.streamingHead(initialMetadata), hasBody: true, frontEnd: frontEnd)
    }

    /// Ends the response: last message, then trailers (or a trailers-only answer).
    func finish(lastMessage: [UInt8]?, initialMetadata: Metadata, trailers: ResponseTrailers, frontEnd: any CallFrontEnd) {
        switch machine.finish(withMessage: lastMessage != nil || !framing.answersHeadOnly) {
        case .none:
            return
        case .trailersOnly:
            stopDeadlineAndSource()
            recordEnd(trailers.code)
            submitTrailersOnly(trailers, frontEnd: frontEnd)
        case .drain(let submitHeaders):
            stopDeadlineAndSource()
            if framing.headWaitsForEnd {
                let message = lastMessage ?? heldMessage.take()
                let answer = framing.unaryAnswer(message: message, initialMetadata: initialMetadata, trailers: trailers)
                sendHead(answer.head, hasBody: true, frontEnd: frontEnd)
                if message != nil, trailers.code == .ok { accessEntry?.responseMessages += 1 }
                accessEntry?.responseBytes += answer.body.count
                outbound.append(answer.body)
                recordEnd(trailers.code)
                wakeBody(frontEnd)
                return
            }
            if submitHeaders { submitResponseHeaders(frontEnd, initialMetadata) }
            if let lastMessage { appendResponse(lastMessage) }
            recordEnd(trailers.code)  // after the last message, which the access log counts
            switch framing.end(trailers) {
            case .trailers(let trailers): machine.trailersFollowBody(trailers)
            case .body(let bytes): appendBodyEnd(bytes)
            }
            wakeBody(frontEnd)
        }
    }

    /// Answers with the status alone: one header block with END_STREAM.
    private func submitTrailersOnly(_ trailers: ResponseTrailers, frontEnd: any CallFrontEnd) {
        let head = framing.headOnly(trailers)
        // No reset after it: nghttp2 would drop the queued HEADERS. Request bytes that still
        // arrive are credited and discarded.
        sendHead(head, hasBody: false, frontEnd: frontEnd)
    }

    /// Answers the front end's read of the response body.
    func readBody(
        into buffer: UnsafeMutableRawBufferPointer, frontEnd: any CallFrontEnd, lowWatermark: Int, highWatermark: Int
    ) -> ResponseBodyRead {
        // The front end is reading now: what the read pulls or finishes needs no wake of it.
        outbound.readStarted()
        if source != nil, outbound.count <= lowWatermark {
            pullSource(frontEnd: frontEnd, highWatermark: highWatermark)
        }
        let count = outbound.read(into: buffer, lowWatermark: lowWatermark)
        if count > 0 { timeouts.sent() }
        if outbound.count == 0 {
            switch machine.bodySent() {
            case .none:
                break
            case .ended:
                return .last(count: count, trailersFollow: false)
            case .sendTrailers(let trailers):
                frontEnd.sendTrailers(trailers, of: self)
                return .last(count: count, trailersFollow: true)
            }
        }
        guard count > 0 else {
            outbound.noteDeferred()
            return .deferred
        }
        return .bytes(count: count)
    }

    /// Answers the call now with `trailers`, after what its response has queued, and stops its
    /// handler; `false` when the call was answered already.
    func endCall(_ trailers: ResponseTrailers, frontEnd: any CallFrontEnd) -> Bool {
        guard !machine.isFinished else { return false }
        finish(lastMessage: nil, initialMetadata: [:], trailers: trailers, frontEnd: frontEnd)
        stopHandler()
        return true
    }

    /// Stops the call's handler: its task's wait ends (a task call) or its task is cancelled
    /// (an inline call that suspended).
    private func stopHandler() {
        call?.abort.fire()
        inlineTask.take()?.cancel()
    }

    /// Ends the call before its time and lets go of the bytes it holds: `trailers` answer it
    /// when its response has not started (trailers-only), a reset for `reason` otherwise.
    func abandon(trailers: ResponseTrailers, reason: StreamReset, frontEnd: any CallFrontEnd) {
        switch machine.abandon() {
        case .trailersOnly where framing.answersHeadOnly:
            recordEnd(trailers.code)
            submitTrailersOnly(trailers, frontEnd: frontEnd)
        case .trailersOnly:
            recordEnd(trailers.code)
            frontEnd.reset(self, reason)
        case .reset(let recordsEnd):
            if recordsEnd { recordEnd(trailers.code) }
            frontEnd.reset(self, reason)
        }
        // Credit withheld for unread messages goes back with them, or the connection's window shrinks for good.
        frontEnd.creditRequestBytes(takeWithheldBytes(), of: self)
        inbound = nil
        dropCall(RPCError(trailers.code, trailers.message))
        stopHandler()
    }

    /// Lets go of the call's source, request and unsent response; its writer and its reader
    /// of the request get `error`.
    private func dropCall(_ error: RPCError) {
        stopDeadlineAndSource()
        inline = nil
        outbound.removeAll()
        outbound.failWriter(error)
        endRequest(error)
    }

    /// The stream is gone (reset, closed, connection lost): stop the call.
    func close() {
        dropCall(Self.closedError)
        if machine.streamClosed() {
            recordEnd(.cancelled)
            stopHandler()
        }
        // The call holds this state too: let go of it, or neither (nor the connection) is freed.
        call = nil
        inlineTask = nil
    }
}

extension CallStream {
    /// What a call still running on a closed stream is told.
    fileprivate static let closedError = RPCError(.cancelled, "the stream was closed")
}

/// An inline call's request while it arrives: its first message and, when more followed, the
/// second (enough for a unary call to refuse them; later ones are dropped).
private struct InlineRequest {
    let route: Route
    let head: RequestHead
    var first: [UInt8]?
    var second: [UInt8]?
    /// Whether a second message came: stored, not computed from `second`, because each read
    /// asks (`inlineRequestIsComplete`), and a getter would copy the whole request to answer.
    private(set) var more = false
    /// The status the request failed with (malformed body, oversize message).
    var failure: RPCError?

    mutating func take(_ message: [UInt8]) {
        if first == nil {
            first = message
        } else if !more {
            second = message
            more = true
        }
    }
}
