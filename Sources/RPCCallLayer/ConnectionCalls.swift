import Logging
import RPCCore

/// The calls of one connection, whatever its protocol and HTTP version: the call layer that
/// every front end drives. It admits, routes and starts calls (inline on the loop, or in
/// the connection's task, see `ConnectionTasks`), delivers their requests, pulls their
/// response sources, and applies what the server promises every call once, for all front
/// ends: the buffer budgets, deadlines, request and send timeouts, metrics and the access log.
///
/// A front end (`ServerConnectionHandler` for HTTP/2) makes a `CallStream` for each request,
/// hands over its header fields and body bytes, and does what the calls ask of it through its
/// `CallFrontEnd`: send a head, trailers or a reset, and write what the streams queued.
///
/// Its jobs are split by file: the calls' side here; admitting and starting calls in `+Start`;
/// buffer budgets and timeout sweeps in `+Budgets`. Touched only on the connection's event
/// loop (see `ServerConnectionHandler` for `@exclusivity(unchecked)`).
package final class ConnectionCalls {
    let configuration: CallLayerConfiguration
    package let router: Router
    let tasks: ConnectionTasks
    package let metrics: ServerMetrics
    /// Shared by the server's connections: warnings a peer can provoke are rate-limited.
    package let warnings: WarningThrottle
    /// Which browser origins may call (`HTTP2ServerConfiguration.corsOrigins`).
    let cors: CORSPolicy
    /// The front end, until the connection is gone.
    @exclusivity(unchecked) var frontEnd: (any CallFrontEnd)?
    /// Where the connection's calls run: its handlers, inline calls once they suspend and the
    /// connection's task (see `ExecutionPolicy`), and its timers.
    @exclusivity(unchecked) var loop: (any CallLoop)?
    /// The calls for the connection's task, once it started.
    @exclusivity(unchecked) var taskCalls: AsyncStream<ServerCall>.Continuation?
    @exclusivity(unchecked) var streams = CallTable()
    @exclusivity(unchecked) var callRate: CallRateLimiter?
    /// What the streams hold for their calls, against the connection's and the server's budgets.
    @exclusivity(unchecked) var buffered: BufferedBytes
    /// When streams are swept for the request and send timeouts; `nil`: never.
    let sweepSchedule: TimeoutSweepSchedule?
    @exclusivity(unchecked) var sweepTimer: (any CallTimer)?
    @exclusivity(unchecked) var wakeQueue: SourceWakeQueue?
    @exclusivity(unchecked) var accessLog: AccessLog?
    /// What the last request that started left for the next one to reuse (see `RequestHeaders`).
    @exclusivity(unchecked) var recentRequest = RequestHeaders.Recent()
    /// The route of the last call that started, and its path (see `RequestValidation.validate`).
    @exclusivity(unchecked) var recentRoute: (path: String, route: Route)?
    /// Inline calls whose requests the current read completed (see `queueInlineAnswer`).
    @exclusivity(unchecked) var readyInlineCalls: [CallStream] = []
    private let baseLogger: Logger
    @exclusivity(unchecked) private var remoteAddress: (any PeerAddress)?
    @exclusivity(unchecked) private var peerText: String?
    @exclusivity(unchecked) private var identity: ConnectionIdentity?
    @exclusivity(unchecked) private var madeLogger: Logger?

    package init(
        configuration: CallLayerConfiguration, router: Router, tasks: ConnectionTasks, logger: Logger,
        metrics: ServerMetrics, warnings: WarningThrottle, bufferPool: BufferedBytesPool?
    ) {
        self.configuration = configuration
        self.router = router
        self.tasks = tasks
        self.baseLogger = logger
        self.metrics = metrics
        self.warnings = warnings
        self.cors = CORSPolicy(origins: configuration.corsOrigins, errorDetailNames: configuration.errorDetailNames)
        self.callRate = configuration.maxCallRate.map { CallRateLimiter($0, clock: configuration.callRateClock) }
        self.buffered = BufferedBytes(
            limit: configuration.maxBufferedBytesPerConnection,
            pool: bufferPool ?? BufferedBytesPool(limit: configuration.maxBufferedBytes))
        self.sweepSchedule = TimeoutSweepSchedule(
            requestBodyTimeout: configuration.requestBodyTimeout, sendStallTimeout: configuration.sendStallTimeout)
    }

    /// The connection is up: calls are served on `loop`, their answers go to `frontEnd`.
    package func open(frontEnd: any CallFrontEnd, loop: any CallLoop, remoteAddress: (any PeerAddress)?) {
        self.frontEnd = frontEnd
        self.loop = loop
        self.remoteAddress = remoteAddress
        if configuration.accessLogLevel != nil {
            accessLog = AccessLog(logger: logger, level: configuration.accessLogLevel)
        }
        wakeQueue = SourceWakeQueue(loop: loop) { [self] streamIDs in pullSources(streamIDs) }
    }

    /// The connection's logger, with the peer's address: made when first needed, so that a
    /// connection that logs nothing (a peer that connects and leaves) formats no address.
    package var logger: Logger {
        if let madeLogger { return madeLogger }
        var logger = baseLogger
        logger[metadataKey: "peer"] = .string(peer)
        madeLogger = logger
        return logger
    }

    /// The peer's address as text, made when first needed (see `logger`). (Kept by hand, not
    /// `lazy`: a lazy property's every read is checked for exclusive access.)
    var peer: String {
        if let peerText { return peerText }
        let text = remoteAddress?.description ?? "unknown"
        peerText = text
        return text
    }

    /// The connection as its calls' heads name it, made when its first call starts.
    var connection: ConnectionIdentity {
        if let identity { return identity }
        let made = ConnectionIdentity.next(peerAddress: remoteAddress?.ipAddress)
        identity = made
        return made
    }

    // MARK: Streams

    /// A new request began: its stream, for the front end to feed.
    @discardableResult
    package func openStream(id: Int32, openedInRead: UInt64) -> CallStream {
        let stream = CallStream(
            id: id, openedInRead: openedInRead, maxHeaderListSize: configuration.maxHeaderListSize, recent: recentRequest,
            timed: metrics.isRecording || accessLog != nil, accessLog: accessLog)
        streams.insert(stream)
        metrics.streams.increment()
        armSweep()
        return stream
    }

    /// The open stream `id`. (The front ends ask through methods: an access from another module
    /// to a property that skips exclusivity checks is checked at run time.)
    package func stream(_ id: Int32) -> CallStream? { streams[id] }

    /// Whether no stream is open.
    package var hasNoStreams: Bool { streams.isEmpty }

    /// Whether a front end opened the connection (`open`).
    package var isOpened: Bool { frontEnd != nil }

    /// `stream`'s request header fields, complete: what the next request may reuse of them is kept.
    package func takeHeaders(of stream: CallStream) -> RequestHeaders {
        let headers = stream.takeHeaders()
        if headers.path != nil { recentRequest = headers.reusable }
        return headers
    }

    /// The read that completed inline calls' requests failed: they are not answered.
    package func dropReadyInlineCalls() {
        readyInlineCalls.removeAll()
    }

    /// The front end is done with the stream `id` (ended, reset, closed); returns it, stopped.
    @discardableResult
    package func closeStream(_ id: Int32) -> CallStream? {
        guard let stream = streams.remove(id) else { return nil }
        metrics.streams.decrement()
        // Bytes the call never read still hold the connection's window: give it back.
        frontEnd?.creditRequestBytes(stream.takeWithheldBytes(), of: stream)
        stream.close()
        release(stream)
        return stream
    }

    /// Takes request body bytes for `stream`; returns how many bytes flow control may credit back now.
    package func receiveData(_ bytes: UnsafeRawBufferPointer, on stream: CallStream) -> Int {
        let credit = stream.receiveData(bytes)
        account(stream)
        queueInlineAnswer(for: stream)
        return credit
    }

    /// Answers the front end's read of `stream`'s response body.
    package func readBody(of stream: CallStream, into buffer: UnsafeMutableRawBufferPointer) -> ResponseBodyRead {
        guard let frontEnd else { return .last(count: 0, trailersFollow: false) }
        let read = stream.readBody(
            into: buffer, frontEnd: frontEnd, lowWatermark: configuration.streamWriteBufferSize / 2,
            highWatermark: configuration.streamWriteBufferSize)
        account(stream)
        return read
    }

    // MARK: Calls → connection (on the loop)

    func send(_ message: [UInt8], on stream: CallStream, initialMetadata: Metadata,
              continuation: CheckedContinuation<Void, any Error>) {
        guard let frontEnd, frontEnd.isOpen, stream.isActive else {
            continuation.resume(throwing: RPCError(.cancelled, "the stream was closed"))
            return
        }
        stream.enqueue(
            message, frontEnd: frontEnd, initialMetadata: initialMetadata, writer: continuation,
            highWatermark: configuration.streamWriteBufferSize)
        account(stream)
        frontEnd.scheduleFlush()
    }

    func finish(_ stream: CallStream, lastMessage: [UInt8]?, initialMetadata: Metadata, trailers: ResponseTrailers) {
        guard let frontEnd, frontEnd.isOpen, streams[stream.id] === stream else { return }
        stream.finish(lastMessage: lastMessage, initialMetadata: initialMetadata, trailers: trailers, frontEnd: frontEnd)
        account(stream)
        frontEnd.scheduleFlush()
    }

    /// Answers `stream`'s call now with `trailers` and stops its handler (`CallStream.endCall`);
    /// `false` when it was answered already.
    @discardableResult
    func endCall(_ stream: CallStream, _ trailers: ResponseTrailers) -> Bool {
        guard let frontEnd, frontEnd.isOpen, streams[stream.id] === stream, stream.endCall(trailers, frontEnd: frontEnd) else {
            return false
        }
        account(stream)
        frontEnd.scheduleFlush()
        return true
    }

    func attach(_ source: any ResponseSource, to stream: CallStream, initialMetadata: Metadata) {
        guard let frontEnd, frontEnd.isOpen, streams[stream.id] === stream else {
            source.streamClosed()
            return
        }
        stream.attach(source, initialMetadata: initialMetadata, frontEnd: frontEnd, highWatermark: configuration.streamWriteBufferSize)
        account(stream)
        frontEnd.scheduleFlush()
    }

    private func pullSources(_ streamIDs: [Int32]) {
        guard let frontEnd, frontEnd.isOpen else { return }
        for id in streamIDs {
            guard let stream = streams[id] else { continue }
            stream.pullSource(frontEnd: frontEnd, highWatermark: configuration.streamWriteBufferSize)
            account(stream)
        }
        frontEnd.flush()
    }

    func returnWithheldCredit(_ stream: CallStream) {
        guard let frontEnd, streams[stream.id] === stream else { return }
        frontEnd.creditRequestBytes(stream.takeWithheldBytes(), of: stream)
        frontEnd.scheduleFlush()
    }

    /// Answers every call still running UNAVAILABLE and cancels its handler, when a graceful
    /// shutdown's grace period is over; returns how many.
    package func cutRunningCalls() -> Int {
        let trailers = ResponseTrailers(
            code: .unavailable,
            message: "the server shut down before the call ended (grace period of \(configuration.shutdownGracePeriod))")
        var cut = 0
        for stream in streams.values where endCall(stream, trailers) {
            metrics.endedEarly(.shutdown)
            cut += 1
        }
        if cut > 0 { tasks.cut(cut) }
        return cut
    }

    /// The connection is gone: every call stops, and the front end is let go.
    package func close() {
        for stream in streams.values {
            stream.close()
            release(stream)
        }
        metrics.streams.decrement(by: Double(streams.count))
        streams.removeAll()
        readyInlineCalls.removeAll()
        sweepTimer?.cancel()
        taskCalls?.finish()
        releaseCallbacks()
    }

    /// Lets go of the front end and the wake queue, which hold the connection (see
    /// `ServerConnectionHandler.releaseCallbacks`).
    package func releaseCallbacks() {
        frontEnd = nil
        wakeQueue = nil
    }
}
