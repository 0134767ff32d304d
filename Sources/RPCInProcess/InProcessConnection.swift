import Logging
import RPCCallLayer
import RPCCore
import RPCFraming
import Synchronization

/// The in-process front end of the call layer: one connection whose calls come from an
/// `InProcessTransport`'s clients. It translates as the network front ends do (a request head
/// of header fields, gRPC-framed request and response bodies, trailers) without a socket or
/// HTTP, so that its calls meet the server's limits, budgets, deadlines, execution policy,
/// metrics and access log. Touched only on its loop, but for `init`.
final class InProcessConnection: CallFrontEnd, @unchecked Sendable {
    /// Response bytes a client may leave unread before the connection stops reading its call's
    /// body (its receive window).
    static let receiveWindow = 64 * 1024
    /// Request bytes a client may send before the call credits them back (the call's window).
    static let sendWindow = 64 * 1024

    let loop: InProcessLoop
    private let calls: ConnectionCalls
    private let tasks: ConnectionTasks
    /// The trailer that carries an error's detail, as the call layer names it.
    let detailTrailer: String
    /// The calls' clients, held weakly: a call its client let go is cancelled (`InProcessClientCall.deinit`).
    private var clients: [Int32: WeakClient] = [:]
    private let nextID = Atomic<Int32>(1)
    /// Streams whose response body may be read now.
    private var readable: [Int32] = []
    /// Streams whose response ended, closed at the next flush.
    private var finished: [Int32] = []
    private var flushScheduled = false
    private var bodyBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// The trailers that the body's last read sent (`sendTrailers`), for the client after its bytes.
    private var trailersOfRead: ResponseTrailers?
    private(set) var isOpen = true

    init(router: Router, configuration: CallLayerConfiguration, loop: InProcessLoop, logger: Logger) {
        self.loop = loop
        self.detailTrailer = configuration.errorDetailNames.trailer
        let tasks = ConnectionTasks()
        self.tasks = tasks
        self.calls = ConnectionCalls(
            configuration: configuration, router: router, tasks: tasks, logger: logger,
            metrics: ServerMetrics(router: router), warnings: WarningThrottle(), bufferPool: nil)
        loop.execute { [self] in calls.open(frontEnd: self, loop: loop, remoteAddress: InProcessPeer()) }
        // Hands the connection's task to ConnectionTasks once its first call that does not run
        // inline starts, as a server's run does; the transport has no task of its own to do it
        // in, and this one ends when the connection closes (`tasks.finish()`).
        Task {
            for await connection in tasks.connections { tasks.run(connection) }
        }
    }

    /// The transport is gone: the calls still running are cancelled.
    func close() {
        loop.execute { [self] in
            isOpen = false
            for client in clients.values { client.call?.ended(ResponseTrailers(code: .cancelled, message: "the transport was closed")) }
            clients.removeAll()
            calls.close()
            tasks.finish()
        }
    }

    // MARK: Client → calls

    /// A new call's id on the connection (from any thread).
    func makeStreamID() -> Int32 {
        let (id, _) = nextID.wrappingAdd(1, ordering: .relaxed)
        return id
    }

    /// Starts `client`'s call of `path`: its request head, as header fields.
    func start(_ client: InProcessClientCall, path: String, contentType: String, options: CallOptions) {
        guard isOpen else {
            client.ended(ResponseTrailers(code: .unavailable, message: "the transport was closed"))
            return
        }
        let id = client.streamID
        clients[id] = WeakClient(client)
        let stream = calls.openStream(id: id, openedInRead: 0)
        var fields: [(name: String, value: String)] = [
            (":method", "POST"), (":scheme", "http"), (":path", path), (":authority", "in-process"),
            ("content-type", contentType), ("te", "trailers"),
        ]
        if let timeout = options.timeout { fields.append(("grpc-timeout", GRPCTimeout.format(timeout))) }
        fields.append(contentsOf: options.metadata.headerFields)
        for (name, value) in fields { stream.appendHeader(name: name, value: value) }
        let headers = calls.takeHeaders(of: stream)
        calls.startCall(on: stream, headers: headers)
        inputEnded()
    }

    /// Request bytes of the call `id`, framed; then its half-close when `endOfStream`.
    func receive(_ bytes: [UInt8], endOfStream: Bool, on id: Int32) {
        guard let stream = calls.stream(id) else { return }
        if !bytes.isEmpty {
            let credit = bytes.withUnsafeBytes { calls.receiveData($0, on: stream) }
            if credit > 0 { clients[id]?.call?.credit(credit) }
        }
        if endOfStream { calls.endRequest(on: stream) }
        inputEnded()
    }

    /// The client of the call `id` cancelled it, or let it go before its end.
    func cancel(_ id: Int32) {
        clients[id] = nil
        calls.closeStream(id)
    }

    /// The client of the call `id` read what it held back: its body may be read again.
    func resumeReading(_ id: Int32) {
        readable.append(id)
        flush()
    }

    /// After what a client sent: inline calls answer, budgets are applied, answers go out.
    private func inputEnded() {
        calls.answerReadyInlineCalls()
        calls.shedOverBudget()
        flush()
    }

    // MARK: Calls → client (CallFrontEnd)

    func sendResponseHead(_ head: ResponseHead, of stream: CallStream, hasBody: Bool) {
        guard let client = clients[stream.id]?.call else { return }
        let fields: [(name: String, value: String)]
        switch head {
        case .plain: fields = []
        case .fields(let headFields): fields = headFields
        }
        if hasBody {
            client.receivedHead(Metadata(headerFields: fields))
            readable.append(stream.id)
            scheduleFlush()
        } else {
            // Trailers-only: the head is the end.
            client.ended(ResponseTrailers(headerFields: fields, detailTrailer: detailTrailer))
            finish(stream.id)
        }
    }

    func resumeResponseBody(of stream: CallStream) {
        readable.append(stream.id)
        scheduleFlush()
    }

    func sendTrailers(_ trailers: ResponseTrailers, of stream: CallStream) {
        // Sent from the body's last read, and delivered after its bytes (`pump`); as on the
        // wire: a message and a detail cut to the sizes any client takes.
        let fields = trailers.headerFields(detailTrailer: detailTrailer)
        trailersOfRead = ResponseTrailers(headerFields: fields, detailTrailer: detailTrailer)
    }

    func reset(_ stream: CallStream, _ reason: StreamReset) {
        let trailers: ResponseTrailers? =
            switch reason {
            case .refused: ResponseTrailers(code: .unavailable, message: "the server refused the call")
            case .cancel: ResponseTrailers(code: .cancelled, message: "the server cancelled the call")
            case .enhanceYourCalm: ResponseTrailers(code: .resourceExhausted, message: "the server asked to calm down")
            case .noError: nil  // answered in full; the client is told to stop sending
            }
        if let trailers { clients[stream.id]?.call?.ended(trailers) }
        clients[stream.id]?.call?.requestsRefused()
        finish(stream.id)
    }

    func creditRequestBytes(_ count: Int, of stream: CallStream) {
        guard count > 0 else { return }
        clients[stream.id]?.call?.credit(count)
    }

    func scheduleFlush() {
        guard !flushScheduled else { return }
        flushScheduled = true
        loop.execute { [self] in
            flushScheduled = false
            flush()
        }
    }

    /// Reads the readable streams' response bodies into their clients while they have room,
    /// then closes the streams whose response ended.
    func flush() {
        calls.shedOverBudget()
        while !readable.isEmpty {
            let ids = readable
            readable.removeAll()
            for id in ids { pump(id) }
        }
        for id in finished {
            clients[id] = nil
            calls.closeStream(id)
        }
        finished.removeAll()
    }

    func closeAbusive(_ reason: String) {
        // An in-process request head is always whole: nothing here can be abusive.
        assertionFailure("an in-process connection closed for abuse: \(reason)")
    }

    // MARK: Response bodies

    private func pump(_ id: Int32) {
        guard let stream = calls.stream(id), let client = clients[id]?.call else { return }
        while client.hasRoom {
            let read = bodyBuffer.withUnsafeMutableBytes { calls.readBody(of: stream, into: $0) }
            switch read {
            case .bytes(let count):
                client.received(bodyBuffer[..<count])
            case .last(let count, _):
                if count > 0 { client.received(bodyBuffer[..<count]) }
                client.ended(trailersOfRead ?? .ok())
                trailersOfRead = nil
                finish(id)
                return
            case .deferred:
                return
            }
        }
        client.holdBack()
    }

    private func finish(_ id: Int32) {
        finished.append(id)
        scheduleFlush()
    }
}

/// A call's client, which the connection does not keep alive.
private struct WeakClient {
    weak var call: InProcessClientCall?

    init(_ call: InProcessClientCall) { self.call = call }
}

/// The peer of an in-process connection, as logs and the caller's identity name it.
private struct InProcessPeer: PeerAddress {
    var description: String { "in-process" }
    var ipAddress: String? { nil }
}
