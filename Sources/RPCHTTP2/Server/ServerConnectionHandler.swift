import CNGHTTP2
import Logging
import NIOCore
import RPCCore

/// Serves one HTTP/2 connection: owns its nghttp2 session, answers inline calls, turns other
/// request streams into `ServerCall`s for the connection's task (started with the first of
/// them, see `ConnectionTasks`), and writes what the calls answer.
///
/// A connection refused by a connection limit (`refusal`) runs no call: it answers its
/// streams with the refusal and closes (`HTTP2ServerConfiguration.refusedConnectionTimeout`).
///
/// Touched only on the connection's event loop, and never re-entered while one of its
/// properties is being changed, so its stored properties skip Swift's run-time exclusivity
/// checks (`@exclusivity(unchecked)`), as do `ServerStreamState`'s: on this path every
/// property access would otherwise pay a thread-local lookup.
final class ServerConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Fired through the pipeline to start a graceful shutdown of the connection.
    struct GracefulShutdownEvent {}

    private let configuration: HTTP2ServerConfiguration
    private let router: Router
    private let tasks: ConnectionTasks
    /// The calls for the connection's task, once it started.
    @exclusivity(unchecked) private var calls: AsyncStream<ServerCall>.Continuation?
    private let baseLogger: Logger
    /// The connection's logger, with the peer's address: made when first needed, so that a
    /// connection that logs nothing (a peer that connects and leaves) formats no address.
    private lazy var logger: Logger = {
        var logger = baseLogger
        logger[metadataKey: "peer"] = .string(peer)
        return logger
    }()
    private let metrics: ServerMetrics
    private let refusal: ConnectionRefusal?
    /// Shared by the server's connections: warnings a peer can provoke are rate-limited.
    private let warnings: WarningThrottle
    /// Whether a stream of a refused connection was answered.
    @exclusivity(unchecked) private var refusalAnswered = false
    @exclusivity(unchecked) private var refusalTimer: Scheduled<Void>?
    @exclusivity(unchecked) private var callRate: CallRateLimiter?
    @exclusivity(unchecked) private var session: NGHTTP2Session?
    @exclusivity(unchecked) private var context: ChannelHandlerContext?
    @exclusivity(unchecked) private var streams = StreamTable()
    @exclusivity(unchecked) private var abuseGuard: AbuseGuard
    @exclusivity(unchecked) private var abuseReason: String?
    @exclusivity(unchecked) private var frameScanner = InboundFrameScanner()
    @exclusivity(unchecked) private var clientStreams = ClientStreamHistory()
    @exclusivity(unchecked) private var headerBlock: HeaderBlockBudget
    /// A violation of the protocol that nghttp2 lets pass, found by a callback: the connection
    /// ends with its error code.
    @exclusivity(unchecked) private var protocolViolation: (errorCode: UInt32, reason: String)?
    @exclusivity(unchecked) private var remoteAddress: SocketAddress?
    /// The peer's address as text, made when first needed (see `logger`). (Kept by hand, not
    /// `lazy`: a lazy property's every read is checked for exclusive access.)
    private var peer: String {
        if let peerText { return peerText }
        let text = remoteAddress?.description ?? "unknown"
        peerText = text
        return text
    }
    @exclusivity(unchecked) private var peerText: String?
    /// The connection as its calls' heads name it, made when its first call starts.
    private var connection: ConnectionIdentity {
        if let identity { return identity }
        let made = ConnectionIdentity.next(peerAddress: remoteAddress?.ipAddress)
        identity = made
        return made
    }
    @exclusivity(unchecked) private var identity: ConnectionIdentity?
    @exclusivity(unchecked) private var isReading = false
    /// Reads from the socket so far, counting the one being processed.
    @exclusivity(unchecked) private var readCount: UInt64 = 0
    @exclusivity(unchecked) private var flushScheduled = false
    @exclusivity(unchecked) private var closing = false
    @exclusivity(unchecked) private var draining = false
    @exclusivity(unchecked) private var goAwaySent = false
    @exclusivity(unchecked) private var keepalive: KeepalivePinger?
    @exclusivity(unchecked) private var idleTimer: Scheduled<Void>?
    /// When the last stream ended, while none is open (see `armIdleTimer`).
    @exclusivity(unchecked) private var idleSince: NIODeadline?
    @exclusivity(unchecked) private var graceTimer: Scheduled<Void>?
    @exclusivity(unchecked) private var wakeQueue: SourceWakeQueue?
    @exclusivity(unchecked) private var accessLog: AccessLog?
    /// What the last request that started left for the next one to reuse (see `RequestHeaders`).
    @exclusivity(unchecked) private var recentRequest = RequestHeaders.Recent()
    /// The route of the last call that started, and its path (see `RequestValidation.validate`).
    @exclusivity(unchecked) private var recentRoute: (path: String, route: Route)?
    /// Inline calls whose requests the current read completed (see `queueInlineAnswer`).
    @exclusivity(unchecked) private var readyInlineCalls: [ServerStreamState] = []
    /// What the streams hold for their calls, against the connection's and the server's budgets.
    @exclusivity(unchecked) private var buffered: BufferedBytes
    /// When streams are swept for the request and send timeouts; `nil`: never.
    private let watchSchedule: StreamWatchSchedule?
    @exclusivity(unchecked) private var sweepTimer: Scheduled<Void>?

    init(
        configuration: HTTP2ServerConfiguration, router: Router, tasks: ConnectionTasks, logger: Logger,
        metrics: ServerMetrics, refusal: ConnectionRefusal? = nil, warnings: WarningThrottle = WarningThrottle(),
        bufferPool: BufferedBytesPool? = nil
    ) {
        self.configuration = configuration
        self.router = router
        self.tasks = tasks
        self.baseLogger = logger
        self.metrics = metrics
        self.refusal = refusal
        self.warnings = warnings
        self.abuseGuard = AbuseGuard(limits: configuration.abuseLimits)
        self.headerBlock = HeaderBlockBudget(limit: configuration.maxHeaderListSize)
        self.callRate = configuration.maxCallRate.map { CallRateLimiter($0) }
        self.buffered = BufferedBytes(
            limit: configuration.maxBufferedBytesPerConnection,
            pool: bufferPool ?? BufferedBytesPool(limit: configuration.maxBufferedBytes))
        self.watchSchedule = StreamWatchSchedule(
            requestBodyTimeout: configuration.requestBodyTimeout, sendStallTimeout: configuration.sendStallTimeout)
    }

    // MARK: Channel events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard session == nil else { return }
        remoteAddress = context.channel.remoteAddress
        if configuration.accessLogLevel != nil {
            accessLog = AccessLog(logger: logger, level: configuration.accessLogLevel)
        }
        let session = NGHTTP2Session(role: .server, delegate: self)
        self.session = session
        wakeQueue = SourceWakeQueue(eventLoop: context.eventLoop) { [self] streamIDs in pullSources(streamIDs) }
        session.submitSettings([
            (Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), UInt32(configuration.maxConcurrentStreams)),
            (Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), UInt32(configuration.streamWindowSize)),
            (Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue), UInt32(configuration.maxHeaderListSize)),
            (Int32(NGHTTP2_SETTINGS_ENABLE_PUSH.rawValue), 0),
        ])
        session.setConnectionWindow(Int32(clamping: configuration.connectionWindowSize))
        if refusal != nil {
            armRefusalTimer(context)
        } else {
            startTimers(context)
            if draining { startDraining() }
        }
        flush()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let session, !closing else { return }
        let buffer = unwrapInboundIn(data)
        keepalive?.received()
        isReading = true
        readCount += 1
        defer { isReading = false }
        let scanned = buffer.withUnsafeReadableBytes { bytes in
            frameScanner.scan(bytes) { frame in
                abuseReason = abuseGuard.frameScanned(frame, dataFramesSent: session.dataFramesSent)
                return abuseReason == nil
            }
        }
        if !scanned, let abuseReason {
            // Not handed to nghttp2: a flood of frames it would parse, or skip, one by one.
            return closeAbusive(abuseReason)
        }
        do {
            try buffer.withUnsafeReadableBytes { (bytes) throws(NGHTTP2Session.SessionError) in try session.receive(bytes) }
        } catch {
            readyInlineCalls.removeAll()
            fail(error)
            return
        }
        if let reason = abuseReason {
            // Found by a callback that cannot stop nghttp2 (see `startCall`).
            readyInlineCalls.removeAll()
            return closeAbusive(reason)
        }
        answerReadyInlineCalls()
        shedOverBudget()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if refusalAnswered {
            endRefusal()
        } else {
            flush()
        }
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { flush() }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        tearDown()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        // The context holds this handler: keeping it would leak the connection once closed.
        self.context = nil
        releaseCallbacks()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("connection error", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is GracefulShutdownEvent {
            beginGracefulShutdown()
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    // MARK: Calls → connection (on the event loop)

    func send(_ message: [UInt8], on stream: ServerStreamState, initialMetadata: Metadata,
              continuation: CheckedContinuation<Void, any Error>) {
        guard let session, stream.isActive, !closing else {
            continuation.resume(throwing: RPCError(.cancelled, "the stream was closed"))
            return
        }
        stream.enqueue(
            message, session: session, initialMetadata: initialMetadata, writer: continuation,
            highWatermark: configuration.streamWriteBufferSize)
        account(stream)
        scheduleFlush()
    }

    func finish(_ stream: ServerStreamState, lastMessage: [UInt8]?, initialMetadata: Metadata, trailers: ResponseTrailers) {
        guard let session, !closing, streams[stream.id] === stream else { return }
        stream.finish(lastMessage: lastMessage, initialMetadata: initialMetadata, trailers: trailers, session: session)
        account(stream)
        scheduleFlush()
    }

    func attach(_ source: any ResponseSource, to stream: ServerStreamState, initialMetadata: Metadata) {
        guard let session, !closing, streams[stream.id] === stream else {
            source.streamClosed()
            return
        }
        stream.attach(source, initialMetadata: initialMetadata, session: session, highWatermark: configuration.streamWriteBufferSize)
        account(stream)
        scheduleFlush()
    }

    private func pullSources(_ streamIDs: [Int32]) {
        guard let session, !closing else { return }
        for id in streamIDs {
            guard let stream = streams[id] else { continue }
            stream.pullSource(session: session, highWatermark: configuration.streamWriteBufferSize)
            account(stream)
        }
        flush()
    }

    func returnWithheldCredit(_ stream: ServerStreamState) {
        guard let session, streams[stream.id] === stream else { return }
        session.consume(streamID: stream.id, count: stream.takeWithheldBytes())
        scheduleFlush()
    }

    // MARK: Writing

    private func scheduleFlush() {
        guard !isReading, !flushScheduled, let context else { return }
        flushScheduled = true
        context.eventLoop.assumeIsolated().execute { [self] in
            flushScheduled = false
            flush()
        }
    }

    private func flush() {
        guard let session, let context, context.channel.isActive else { return }
        shedOverBudget()
        if !closing {
            do {
                if try session.write(to: context) { scheduleFlush() }
            } catch {
                fail(error)
                return
            }
        }
        if session.isFinished && !closing {
            closing = true
            context.close(promise: nil)
        }
    }

    /// Sends what nghttp2 has queued (a GOAWAY), then closes (`mode`).
    private func closeAfterFlush(_ mode: CloseMode = .all) {
        guard let session, let context, !closing else { return }
        closing = true
        var buffer = context.channel.allocator.buffer(capacity: 256)
        try? session.send(into: &buffer, limit: 64 * 1024)
        context.writeAndFlush(wrapOutboundOut(buffer)).assumeIsolated().whenComplete { _ in
            context.close(mode: mode, promise: nil)
        }
    }

    /// GOAWAY ENHANCE_YOUR_CALM, then close.
    private func closeAbusive(_ reason: String) {
        warnings.warning("closing abusive connection", metadata: ["reason": "\(reason)"], on: logger)
        session?.terminate(errorCode: HTTP2ErrorCode.enhanceYourCalm)
        closeAfterFlush()
    }

    private func fail(_ error: NGHTTP2Session.SessionError) {
        guard let session else { return }
        if let reason = abuseReason ?? (error.isFlood ? "control frame flood" : nil) {
            return closeAbusive(reason)
        }
        let (errorCode, reason) = protocolViolation ?? (HTTP2ErrorCode.protocolError, "\(error)")
        logger.info("closing connection after a protocol error", metadata: ["error": "\(reason)"])
        session.terminate(errorCode: errorCode)
        closeAfterFlush()
    }

    private func tearDown() {
        for stream in streams.values {
            stream.close()
            release(stream)
        }
        metrics.streams.decrement(by: Double(streams.count))
        streams.removeAll()
        keepalive?.stop()
        idleTimer?.cancel()
        sweepTimer?.cancel()
        graceTimer?.cancel()
        refusalTimer?.cancel()
        calls?.finish()
        closing = true
        releaseCallbacks()
    }

    /// Lets go of the callbacks that hold this handler (strongly: a weak reference to it would
    /// make every retain of the handler take the slow path, and it is retained for every
    /// frame), which would otherwise keep it alive.
    private func releaseCallbacks() {
        keepalive = nil
        wakeQueue = nil
    }

    // MARK: What calls hold

    /// Brings the connection's count of held bytes up to date with `stream`'s.
    private func account(_ stream: ServerStreamState) {
        let held = stream.heldBytes
        guard held != stream.accountedBytes else { return }
        buffered.change(by: held - stream.accountedBytes)
        stream.accountedBytes = held
        if held > 0 { armSweep() }
    }

    /// `stream` is gone: what it held is no longer the connection's.
    private func release(_ stream: ServerStreamState) {
        buffered.change(by: -stream.accountedBytes)
        stream.accountedBytes = 0
    }

    /// The answer to a call that the buffer budgets refuse or end, naming the budget.
    private var overBudgetTrailers: ResponseTrailers {
        let (scope, limit) =
            buffered.held > buffered.limit ? ("connection", buffered.limit) : ("server", buffered.pool.limit)
        return ResponseTrailers(
            code: .resourceExhausted,
            message: "the \(scope) holds more bytes of unfinished calls than its budget of \(limit)",
            detail: ErrorDetail(reason: "bufferBudgetExceeded", details: ["scope": .string(scope), "limit": .number(Double(limit))]))
    }

    /// While the connection holds more than its budgets allow, ends its largest calls. (Called
    /// where a write follows: at the end of a read, and in `flush`.)
    private func shedOverBudget() {
        guard buffered.isOverBudget, let session, !closing else { return }
        while buffered.isOverBudget, let largest = streams.values.max(by: { $0.heldBytes < $1.heldBytes }), largest.heldBytes > 0 {
            let trailers = overBudgetTrailers
            warnings.warning(
                "ending a call over the buffer budget", metadata: ["held": "\(largest.heldBytes)", "reason": "\(trailers.message)"],
                on: logger)
            endEarly(largest, .bufferBudget, trailers, resetCode: HTTP2ErrorCode.enhanceYourCalm, session: session)
        }
    }

    /// Ends `stream`'s call before its time (`ServerStreamState.abandon`), counting why.
    private func endEarly(
        _ stream: ServerStreamState, _ reason: ServerMetrics.EarlyEnd, _ trailers: ResponseTrailers, resetCode: UInt32,
        session: NGHTTP2Session
    ) {
        metrics.endedEarly(reason)
        stream.abandon(trailers: trailers, resetCode: resetCode, session: session)
        account(stream)
    }

    /// Sweeps the streams once `watchSchedule.interval` has passed, unless a sweep is due already.
    private func armSweep() {
        guard sweepTimer == nil, let schedule = watchSchedule, let context, !closing else { return }
        sweepTimer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(schedule.interval)) { [self] in
            sweepTimer = nil
            sweep(schedule)
        }
    }

    /// Ends the calls whose request or response timed out (`StreamWatch`); sweeps again while
    /// a request is open or response bytes wait.
    private func sweep(_ schedule: StreamWatchSchedule) {
        guard let session, !closing else { return }
        var watching = false
        for stream in streams.values {
            let requestOpen = !stream.clientEnded
            let expiry = stream.watch.sweep(
                requestOpen: requestOpen, responseWaiting: stream.responseWaiting,
                requestSweeps: schedule.requestSweeps, stallSweeps: schedule.stallSweeps)
            switch expiry {
            case .requestTimedOut? where !stream.started:
                // Its header block never ended, and nothing else may come on the connection until it does.
                return closeAbusive("request headers incomplete for \(configuration.requestBodyTimeout ?? .zero)")
            case .requestTimedOut?:
                if stream.responseComplete {
                    // Answered in full: the client is told to stop sending, without error (RFC 9113 §8.1).
                    session.submitReset(streamID: stream.id, errorCode: HTTP2ErrorCode.noError)
                } else {
                    let timeout = configuration.requestBodyTimeout ?? .zero
                    let trailers = ResponseTrailers(
                        code: .deadlineExceeded, message: "the request did not arrive in full within \(timeout)")
                    endEarly(stream, .requestTimeout, trailers, resetCode: HTTP2ErrorCode.cancel, session: session)
                }
            case .sendStalled?:
                let timeout = configuration.sendStallTimeout ?? .zero
                let trailers = ResponseTrailers(code: .cancelled, message: "the client took no response byte for \(timeout)")
                endEarly(stream, .sendStall, trailers, resetCode: HTTP2ErrorCode.cancel, session: session)
            case nil:
                watching = watching || requestOpen || stream.responseWaiting
            }
        }
        if watching { armSweep() }
        flush()
    }

    // MARK: Timers and graceful shutdown

    private func startTimers(_ context: ChannelHandlerContext) {
        keepalive = KeepalivePinger(
            interval: configuration.keepaliveInterval, timeout: configuration.keepaliveTimeout, eventLoop: context.eventLoop,
            sendPing: { [self] in
                guard let session, !closing else { return }
                session.submitPing()
                flush()
            },
            onTimeout: { [self] in
                logger.info("closing connection: keepalive PING unanswered")
                session?.terminate(errorCode: HTTP2ErrorCode.noError)
                closeAfterFlush()
            })
        keepalive?.start()
        armIdleTimer()
    }

    /// Notes that the connection has no stream from now on. One timer at most is scheduled:
    /// arming it for every call that ends and cancelling it for every call that starts cost
    /// a scheduled task each, so the timer instead checks, when it fires, how long the
    /// connection has really been idle, and waits out the rest.
    private func armIdleTimer() {
        guard let timeout = configuration.idleTimeout, refusal == nil, streams.isEmpty else { return }
        let now = NIODeadline.now()
        idleSince = now
        if idleTimer == nil { scheduleIdleCheck(at: now + TimeAmount(timeout)) }
    }

    private func scheduleIdleCheck(at deadline: NIODeadline) {
        guard let context else { return }
        idleTimer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            idleTimer = nil
            // A call is open: the timer is armed again when the last one ends.
            guard let idleSince, let timeout = configuration.idleTimeout else { return }
            let end = idleSince + TimeAmount(timeout)
            if end > .now() { return scheduleIdleCheck(at: end) }
            logger.debug("closing idle connection")
            beginGracefulShutdown()
        }
    }

    /// GOAWAY in two steps (notice, then the last stream after a PING round trip); in-flight
    /// calls finish, and the connection closes when they have or the grace period ends.
    func beginGracefulShutdown() {
        guard !draining, !closing, refusal == nil else { return }
        draining = true
        // A connection accepted just before shutdown began is not active yet: start() drains it.
        if session != nil { startDraining() }
    }

    private func startDraining() {
        guard let session, let context else { return }
        session.submitShutdownNotice()
        session.submitPing()
        graceTimer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(configuration.shutdownGracePeriod)) { [self] in
            logger.info("closing connection: shutdown grace period over", metadata: ["open_streams": "\(streams.count)"])
            self.session?.terminate(errorCode: HTTP2ErrorCode.noError)
            closeAfterFlush()
        }
        flush()
    }

    // MARK: Refused connections

    /// Closes the refused connection when `refusedConnectionTimeout` is over: with the
    /// refusal's GOAWAY if it was not answered yet.
    private func armRefusalTimer(_ context: ChannelHandlerContext) {
        refusalTimer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(configuration.refusedConnectionTimeout)) {
            [self] in
            if closing {
                self.context?.close(promise: nil)
            } else {
                submitRefusalGoAway()
                closeAfterFlush()
            }
        }
    }

    /// After the first answers on a refused connection: GOAWAY, then only our side is closed,
    /// so that closing with unread bytes does not reset the connection before the peer read
    /// the answers; the peer's close, or the refusal timer, ends it.
    private func endRefusal() {
        guard !closing else { return }
        submitRefusalGoAway()
        closeAfterFlush(.output)
    }

    private func submitRefusalGoAway() {
        guard let refusal, let session else { return }
        session.submitGoAway(
            lastStreamID: session.lastProcessedStreamID, errorCode: HTTP2ErrorCode.enhanceYourCalm, debugData: refusal.message)
    }

    private func sendFinalGoAway() {
        guard let session, draining, !goAwaySent else { return }
        goAwaySent = true
        session.submitGoAway(lastStreamID: session.lastProcessedStreamID, errorCode: HTTP2ErrorCode.noError)
    }
}

// MARK: - nghttp2 events

extension ServerConnectionHandler: NGHTTP2SessionDelegate {
    func session(beganFrame type: UInt8, flags: UInt8, streamID: Int32, length: Int) -> Bool {
        // A rapid-reset flood cancels each request in the same read that brought it, before
        // the server could start it; a client cancelling calls it sent earlier (a Watch it no
        // longer needs, calls whose deadlines passed together) does not, so only those count.
        // nghttp2 ignores a reset of a stream already closed here.
        if abuseReason != nil { return false }  // found since the last frame
        headerBlock.frameBegan(type: type, length: length)
        if type == FrameType.rstStream, streams[streamID]?.openedInRead != readCount { return true }
        if type == FrameType.headers, streams[streamID] == nil {
            switch clientStreams.judge(headersOn: streamID) {
            case .opens, .ignored: break
            case .violation(let errorCode, let reason):
                protocolViolation = (errorCode, reason)
                return false
            }
        }
        if let reason = abuseGuard.frameBegan(type: type, flags: flags) {
            abuseReason = reason
            return false
        }
        return true
    }

    func session(beganHeadersOn streamID: Int32, isRequest: Bool) {
        guard isRequest else { return }
        clientStreams.opened(streamID)
        streams.insert(ServerStreamState(
            id: streamID, openedInRead: readCount, maxHeaderListSize: configuration.maxHeaderListSize, recent: recentRequest,
            timed: metrics.isRecording || accessLog != nil, accessLog: accessLog))
        metrics.streams.increment()
        idleSince = nil
        armSweep()
    }

    func session(header name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, on streamID: Int32) -> Bool {
        if let reason = headerBlock.field(nameCount: name.count, valueCount: value.count) {
            abuseReason = reason
            return false
        }
        guard let stream = streams[streamID], !stream.started else { return true }  // trailers are ignored
        stream.headers.append(name: name, value: value)
        return true
    }

    func session(received frame: ReceivedFrame) {
        switch frame.type {
        case FrameType.headers:
            guard let stream = streams[frame.streamID] else { return }
            if !stream.started { startCall(on: stream) }
            if frame.endStream { endRequest(on: stream) }
        case FrameType.data:
            if frame.endStream, let stream = streams[frame.streamID] { endRequest(on: stream) }
        case FrameType.ping where frame.ack:
            keepalive?.acknowledged()
            sendFinalGoAway()
        default:
            break
        }
    }

    func session(dataChunk bytes: UnsafeRawBufferPointer, on streamID: Int32) {
        guard let session else { return }
        guard let stream = streams[streamID] else {
            session.consume(streamID: streamID, count: bytes.count)
            return
        }
        session.consume(streamID: streamID, count: stream.receiveData(bytes))
        account(stream)
        queueInlineAnswer(for: stream)
    }

    private func endRequest(on stream: ServerStreamState) {
        stream.receiveEndOfStream()
        queueInlineAnswer(for: stream)
    }

    /// Notes an inline call whose request is complete; it is answered once the read that
    /// completed it is processed, so that a call the same read also cancelled (a rapid reset)
    /// costs no handler and no response.
    private func queueInlineAnswer(for stream: ServerStreamState) {
        if stream.inlineRequestIsComplete { readyInlineCalls.append(stream) }
    }

    private func answerReadyInlineCalls() {
        guard !readyInlineCalls.isEmpty else { return }
        defer { readyInlineCalls.removeAll(keepingCapacity: true) }
        guard let session, let wakeQueue, !closing else { return }
        for stream in readyInlineCalls {
            stream.answerInlineCall(session: session, highWatermark: configuration.streamWriteBufferSize, wakeQueue: wakeQueue)
            account(stream)
        }
    }

    func session(closed streamID: Int32, errorCode: UInt32) {
        guard let stream = streams.remove(streamID) else { return }
        if errorCode != HTTP2ErrorCode.noError { clientStreams.reset(streamID) }
        metrics.streams.decrement()
        // Bytes the call never read still hold the connection's window: give it back.
        session?.consume(streamID: streamID, count: stream.takeWithheldBytes())
        stream.close()
        release(stream)
        if streams.isEmpty { armIdleTimer() }
    }

    func session(readDataFor streamID: Int32, into buffer: UnsafeMutableRawBufferPointer) -> DataRead {
        guard let session, let stream = streams[streamID] else { return .bytes(count: 0, endOfData: true, endStream: true) }
        let read = stream.readData(
            into: buffer, session: session, lowWatermark: configuration.streamWriteBufferSize / 2,
            highWatermark: configuration.streamWriteBufferSize)
        account(stream)
        return read
    }

    private func startCall(on stream: ServerStreamState) {
        guard let session, let context, let wakeQueue else { return }
        let headers = stream.takeHeaders()
        if headers.path != nil { recentRequest = headers.reusable }
        if headers.overflowed, let reason = abuseGuard.headerListOverflowed() {
            // The connection closes once nghttp2 begins the next frame or the read ends.
            abuseReason = reason
            return
        }
        if let refusal {
            refusalAnswered = true
            answer(stream, RequestValidation.refuse(headers, with: refusal.trailers), path: headers.path, session: session)
            return
        }
        if callRate?.admit() == false, let trailers = callRate?.refusal {
            answer(stream, RequestValidation.refuse(headers, with: trailers), path: headers.path, session: session)
            return
        }
        if buffered.isOverBudget {
            answer(stream, RequestValidation.refuse(headers, with: overBudgetTrailers), path: headers.path, session: session)
            return
        }
        switch RequestValidation.validate(headers, router: router, peer: peer, connection: connection, recentRoute: recentRoute) {
        case .failure(let rejected):
            answer(stream, rejected, path: headers.path, session: session)
        case .success(let accepted):
            recentRoute = (accepted.head.path, accepted.route)
            if let deadline = accepted.head.deadline {
                stream.armDeadline(on: context.eventLoop, at: deadline, connection: self)
            }
            if accepted.route.runsInline {
                stream.start(
                    accepted, call: nil, maxMessageSize: configuration.maxReceiveMessageSize,
                    metrics: metrics.method(for: accepted.route))
                return
            }
            let call = ServerCall(
                head: accepted.head, route: accepted.route, stream: stream, connection: self, wakeQueue: wakeQueue,
                eventLoop: context.eventLoop)
            stream.start(
                accepted, call: call, maxMessageSize: configuration.maxReceiveMessageSize,
                metrics: metrics.method(for: accepted.route))
            if calls == nil { calls = tasks.start(on: context.eventLoop) }
            guard case .enqueued = calls?.yield(call) else {
                stream.close()
                session.submitReset(streamID: stream.id, errorCode: HTTP2ErrorCode.refusedStream)
                return
            }
        }
    }

    /// Answers a call to `path` that does not start with `rejected`, trailers-only.
    private func answer(_ stream: ServerStreamState, _ rejected: RequestValidation.Rejected, path: String?, session: NGHTTP2Session) {
        let path = path ?? ""
        stream.rejected(path: path, caller: rejected.caller, code: rejected.trailers.code, metrics: metrics.method(forPath: path))
        _ = session.submitResponse(streamID: stream.id, headers: rejected.headerFields, hasBody: false)
    }
}
