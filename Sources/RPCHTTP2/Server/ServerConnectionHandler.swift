import CNGHTTP2
import Logging
import NIOCore
import RPCCallLayer
import RPCCore
import RPCHTTP2Core

/// Serves one HTTP/2 connection: owns its nghttp2 session and is the HTTP/2 front end of the
/// connection's calls (`ConnectionCalls`, the protocol-neutral call layer), which it feeds
/// request heads and bodies and for which it sends heads, trailers and resets
/// (`CallFrontEnd`).
///
/// Its jobs are split by file: channel events and writing here; where the connection is in its
/// life in `StateMachine`; what nghttp2 reports in `+NGHTTP2`; what the calls ask of HTTP/2 in
/// `+Transport`; keepalive, idle timeout, graceful shutdown and refused connections in `+Timers`.
///
/// A connection refused by a connection limit (`refusal`) runs no call: it answers its
/// streams with the refusal and closes (`HTTP2ServerConfiguration.refusedConnectionTimeout`).
///
/// Touched only on the connection's event loop, and never re-entered while one of its
/// properties is being changed, so its stored properties skip Swift's run-time exclusivity
/// checks (`@exclusivity(unchecked)`), as do `CallStream`'s: on this path every
/// property access would otherwise pay a thread-local lookup.
final class ServerConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Fired through the pipeline to start a graceful shutdown of the connection.
    struct GracefulShutdownEvent {}

    let configuration: HTTP2ServerConfiguration
    /// The connection's calls: everything about them that is not HTTP/2's.
    let calls: ConnectionCalls
    var logger: Logger { calls.logger }
    var metrics: ServerMetrics { calls.metrics }
    let refusal: ConnectionRefusal?
    /// Where the connection is in its life, from accept to close.
    @exclusivity(unchecked) var state: StateMachine
    @exclusivity(unchecked) var refusalTimer: Scheduled<Void>?
    @exclusivity(unchecked) var session: NGHTTP2Session?
    @exclusivity(unchecked) var context: ChannelHandlerContext?
    @exclusivity(unchecked) var abuseGuard: AbuseGuard
    @exclusivity(unchecked) var abuseReason: String?
    @exclusivity(unchecked) private var frameScanner = InboundFrameScanner()
    @exclusivity(unchecked) var clientStreams = ClientStreamHistory()
    @exclusivity(unchecked) var headerBlock: HeaderBlockBudget
    /// A violation of the protocol that nghttp2 lets pass, found by a callback: the connection
    /// ends with its error code.
    @exclusivity(unchecked) var protocolViolation: (errorCode: UInt32, reason: String)?
    @exclusivity(unchecked) private var isReading = false
    /// Reads from the socket so far, counting the one being processed.
    @exclusivity(unchecked) var readCount: UInt64 = 0
    @exclusivity(unchecked) private var flushScheduled = false
    @exclusivity(unchecked) var keepalive: KeepalivePinger?
    /// Runs while no stream is open (see `armIdleTimer`); `nil` with no idle timeout.
    @exclusivity(unchecked) var idleTimeout: LazyTimeout?
    @exclusivity(unchecked) var graceTimer: Scheduled<Void>?
    /// Times the connection until its first HEADERS frame; `nil`: not timed.
    let headDeadline: RequestHeadDeadline?

    init(
        configuration: HTTP2ServerConfiguration, router: Router, tasks: ConnectionTasks, logger: Logger,
        metrics: ServerMetrics, refusal: ConnectionRefusal? = nil, warnings: WarningThrottle = WarningThrottle(),
        bufferPool: BufferedBytesPool? = nil, headDeadline: RequestHeadDeadline? = nil
    ) {
        self.configuration = configuration
        self.headDeadline = headDeadline
        self.calls = ConnectionCalls(
            configuration: configuration.callLayer, router: router, tasks: tasks, logger: logger, metrics: metrics, warnings: warnings,
            bufferPool: bufferPool)
        self.refusal = refusal
        self.state = StateMachine(refused: refusal != nil)
        self.abuseGuard = AbuseGuard(limits: configuration.abuseLimits)
        self.headerBlock = HeaderBlockBudget(limit: configuration.maxHeaderListSize)
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
        let session = NGHTTP2Session(role: .server, delegate: self)
        self.session = session
        calls.open(frontEnd: self, loop: EventLoopCallLoop(context.eventLoop), remoteAddress: context.channel.remoteAddress)
        session.submitSettings([
            (Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), UInt32(configuration.maxConcurrentStreams)),
            (Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), UInt32(configuration.streamWindowSize)),
            (Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue), UInt32(configuration.maxHeaderListSize)),
            (Int32(NGHTTP2_SETTINGS_ENABLE_PUSH.rawValue), 0),
        ])
        session.setConnectionWindow(Int32(clamping: configuration.connectionWindowSize))
        headDeadline?.close = { [self] in
            self.session?.terminate(errorCode: HTTP2ErrorCode.noError)
            closeAfterFlush()
        }
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
            calls.dropReadyInlineCalls()
            fail(error)
            return
        }
        if let reason = abuseReason {
            // Found by a callback that cannot stop nghttp2 (see `startCall`).
            calls.dropReadyInlineCalls()
            return closeAbusive(reason)
        }
        calls.answerReadyInlineCalls()
        calls.shedOverBudget()
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

    // MARK: Writing

    func scheduleFlush() {
        guard !isReading, !flushScheduled, let context else { return }
        flushScheduled = true
        context.eventLoop.assumeIsolated().execute { [self] in
            flushScheduled = false
            flush()
        }
    }

    func flush() {
        guard let session, let context, context.channel.isActive else { return }
        calls.shedOverBudget()
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
        guard state.isOpen else { return }
        calls.warnings.warning("closing abusive connection", metadata: ["reason": "\(reason)"], on: logger)
        metrics.closed(.abuse)
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
        state.channelInactive()
        calls.close()
        keepalive?.stop()
        graceTimer?.cancel()
        refusalTimer?.cancel()
        releaseCallbacks()
    }

    /// Lets go of the callbacks that hold this handler (strongly: a weak reference to it would
    /// make every retain of the handler take the slow path, and it is retained for every
    /// frame), which would otherwise keep it alive.
    private func releaseCallbacks() {
        headDeadline?.met()
        keepalive = nil
        idleTimeout?.cancel()
        idleTimeout = nil
        calls.releaseCallbacks()
    }
}
