import CNGHTTP2
import Logging
import NIOCore
import RPCCore

/// Serves one HTTP/2 connection: owns its nghttp2 session, answers inline calls, turns other
/// request streams into `ServerCall`s for the connection's task (started with the first of
/// them, see `ConnectionTasks`), and writes what the calls answer.
///
/// Its jobs are split by file: channel events and writing here; where the connection is in its
/// life in `StateMachine`; what nghttp2 reports in `+NGHTTP2`; starting calls in `+Calls`;
/// buffer budgets and timeout sweeps in `+Budgets`; keepalive, idle timeout, graceful shutdown
/// and refused connections in `+Timers`.
///
/// A connection refused by a connection limit (`refusal`) runs no call: it answers its
/// streams with the refusal and closes (`HTTP2ServerConfiguration.refusedConnectionTimeout`).
///
/// Touched only on the connection's event loop, and never re-entered while one of its
/// properties is being changed, so its stored properties skip Swift's run-time exclusivity
/// checks (`@exclusivity(unchecked)`), as do `ServerStream`'s: on this path every
/// property access would otherwise pay a thread-local lookup.
final class ServerConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Fired through the pipeline to start a graceful shutdown of the connection.
    struct GracefulShutdownEvent {}

    let configuration: HTTP2ServerConfiguration
    let router: Router
    let tasks: ConnectionTasks
    /// The calls for the connection's task, once it started.
    @exclusivity(unchecked) var calls: AsyncStream<ServerCall>.Continuation?
    private let baseLogger: Logger
    /// The connection's logger, with the peer's address: made when first needed, so that a
    /// connection that logs nothing (a peer that connects and leaves) formats no address.
    lazy var logger: Logger = {
        var logger = baseLogger
        logger[metadataKey: "peer"] = .string(peer)
        return logger
    }()
    let metrics: ServerMetrics
    let refusal: ConnectionRefusal?
    /// Shared by the server's connections: warnings a peer can provoke are rate-limited.
    let warnings: WarningThrottle
    /// Where the connection is in its life, from accept to close.
    @exclusivity(unchecked) var state: StateMachine
    @exclusivity(unchecked) var refusalTimer: Scheduled<Void>?
    @exclusivity(unchecked) var callRate: CallRateLimiter?
    @exclusivity(unchecked) var session: NGHTTP2Session?
    @exclusivity(unchecked) var context: ChannelHandlerContext?
    @exclusivity(unchecked) var streams = StreamTable()
    @exclusivity(unchecked) var abuseGuard: AbuseGuard
    @exclusivity(unchecked) var abuseReason: String?
    @exclusivity(unchecked) private var frameScanner = InboundFrameScanner()
    @exclusivity(unchecked) var clientStreams = ClientStreamHistory()
    @exclusivity(unchecked) var headerBlock: HeaderBlockBudget
    /// A violation of the protocol that nghttp2 lets pass, found by a callback: the connection
    /// ends with its error code.
    @exclusivity(unchecked) var protocolViolation: (errorCode: UInt32, reason: String)?
    @exclusivity(unchecked) private var remoteAddress: SocketAddress?
    /// The peer's address as text, made when first needed (see `logger`). (Kept by hand, not
    /// `lazy`: a lazy property's every read is checked for exclusive access.)
    var peer: String {
        if let peerText { return peerText }
        let text = remoteAddress?.description ?? "unknown"
        peerText = text
        return text
    }
    @exclusivity(unchecked) private var peerText: String?
    /// The connection as its calls' heads name it, made when its first call starts.
    var connection: ConnectionIdentity {
        if let identity { return identity }
        let made = ConnectionIdentity.next(peerAddress: remoteAddress?.ipAddress)
        identity = made
        return made
    }
    @exclusivity(unchecked) private var identity: ConnectionIdentity?
    @exclusivity(unchecked) private var isReading = false
    /// Reads from the socket so far, counting the one being processed.
    @exclusivity(unchecked) var readCount: UInt64 = 0
    @exclusivity(unchecked) private var flushScheduled = false
    @exclusivity(unchecked) var keepalive: KeepalivePinger?
    @exclusivity(unchecked) var idleTimer: Scheduled<Void>?
    /// When the last stream ended, while none is open (see `armIdleTimer`).
    @exclusivity(unchecked) var idleSince: NIODeadline?
    @exclusivity(unchecked) var graceTimer: Scheduled<Void>?
    @exclusivity(unchecked) var wakeQueue: SourceWakeQueue?
    @exclusivity(unchecked) var accessLog: AccessLog?
    /// What the last request that started left for the next one to reuse (see `RequestHeaders`).
    @exclusivity(unchecked) var recentRequest = RequestHeaders.Recent()
    /// The route of the last call that started, and its path (see `RequestValidation.validate`).
    @exclusivity(unchecked) var recentRoute: (path: String, route: Route)?
    /// Inline calls whose requests the current read completed (see `queueInlineAnswer`).
    @exclusivity(unchecked) var readyInlineCalls: [ServerStream] = []
    /// What the streams hold for their calls, against the connection's and the server's budgets.
    @exclusivity(unchecked) var buffered: BufferedBytes
    /// When streams are swept for the request and send timeouts; `nil`: never.
    let watchSchedule: StreamWatchSchedule?
    @exclusivity(unchecked) var sweepTimer: Scheduled<Void>?

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
        self.state = StateMachine(refused: refusal != nil)
        self.abuseGuard = AbuseGuard(limits: configuration.abuseLimits)
        self.headerBlock = HeaderBlockBudget(limit: configuration.maxHeaderListSize)
        self.callRate = configuration.maxCallRate.map { CallRateLimiter($0, clock: configuration.callRateClock) }
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

    func start(_ context: ChannelHandlerContext) {
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
        switch state.channelActive() {
        case .none:
            break
        case .armRefusalTimer:
            armRefusalTimer(context)
        case .startTimers:
            startTimers(context)
        case .startTimersAndDrain:
            startTimers(context)
            startDraining()
        }
        flush()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let session, state.isOpen else { return }
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
        switch state.readComplete() {
        case .none: break
        case .flush: flush()
        case .endRefusal: endRefusal()
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

    func send(_ message: [UInt8], on stream: ServerStream, initialMetadata: Metadata,
              continuation: CheckedContinuation<Void, any Error>) {
        guard let session, stream.isActive, state.isOpen else {
            continuation.resume(throwing: RPCError(.cancelled, "the stream was closed"))
            return
        }
        stream.enqueue(
            message, session: session, initialMetadata: initialMetadata, writer: continuation,
            highWatermark: configuration.streamWriteBufferSize)
        account(stream)
        scheduleFlush()
    }

    func finish(_ stream: ServerStream, lastMessage: [UInt8]?, initialMetadata: Metadata, trailers: ResponseTrailers) {
        guard let session, state.isOpen, streams[stream.id] === stream else { return }
        stream.finish(lastMessage: lastMessage, initialMetadata: initialMetadata, trailers: trailers, session: session)
        account(stream)
        scheduleFlush()
    }

    /// Answers `stream`'s call now with `trailers` and stops its handler (`ServerStream.endCall`);
    /// `false` when it was answered already.
    @discardableResult
    func endCall(_ stream: ServerStream, _ trailers: ResponseTrailers) -> Bool {
        guard let session, state.isOpen, streams[stream.id] === stream, stream.endCall(trailers, session: session) else {
            return false
        }
        account(stream)
        scheduleFlush()
        return true
    }

    func attach(_ source: any ResponseSource, to stream: ServerStream, initialMetadata: Metadata) {
        guard let session, state.isOpen, streams[stream.id] === stream else {
            source.streamClosed()
            return
        }
        stream.attach(source, initialMetadata: initialMetadata, session: session, highWatermark: configuration.streamWriteBufferSize)
        account(stream)
        scheduleFlush()
    }

    private func pullSources(_ streamIDs: [Int32]) {
        guard let session, state.isOpen else { return }
        for id in streamIDs {
            guard let stream = streams[id] else { continue }
            stream.pullSource(session: session, highWatermark: configuration.streamWriteBufferSize)
            account(stream)
        }
        flush()
    }

    func returnWithheldCredit(_ stream: ServerStream) {
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

    func flush() {
        guard let session, let context, context.channel.isActive else { return }
        shedOverBudget()
        if state.isOpen {
            do {
                if try session.write(to: context) { scheduleFlush() }
            } catch {
                fail(error)
                return
            }
        }
        if session.isFinished && state.sessionFinished() {
            context.close(promise: nil)
        }
    }

    /// Unless the connection is closing already: sends what nghttp2 has queued (a GOAWAY),
    /// then closes.
    func closeAfterFlush() {
        guard state.close() else { return }
        sendQueuedThenClose(.all)
    }

    /// Sends what nghttp2 has queued, then closes (`mode`).
    func sendQueuedThenClose(_ mode: CloseMode) {
        guard let session, let context else { return }
        var buffer = context.channel.allocator.buffer(capacity: 256)
        try? session.send(into: &buffer, limit: 64 * 1024)
        context.writeAndFlush(wrapOutboundOut(buffer)).assumeIsolated().whenComplete { _ in
            context.close(mode: mode, promise: nil)
        }
    }

    /// GOAWAY ENHANCE_YOUR_CALM, then close.
    func closeAbusive(_ reason: String) {
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
        state.channelInactive()
        releaseCallbacks()
    }

    /// Lets go of the callbacks that hold this handler (strongly: a weak reference to it would
    /// make every retain of the handler take the slow path, and it is retained for every
    /// frame), which would otherwise keep it alive.
    private func releaseCallbacks() {
        keepalive = nil
        wakeQueue = nil
    }
}
