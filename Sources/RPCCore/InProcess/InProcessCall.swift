import Synchronization

/// One call of an `InProcessTransport`: a request queue and a response queue between the
/// client's stream (`client`) and the server's (`server`). The server's handler runs in a task
/// of its own, as over a network.
final class InProcessCall: Sendable {
    /// Response messages queued before a handler's `send` waits and a pulled source is left
    /// alone until the client reads.
    static let highWatermark = 16

    let head: RequestHead
    private let state = Mutex(State())

    private struct State: Sendable {
        var requests: [[UInt8]] = []
        var requestEnded = false
        var requestReader: CheckedContinuation<Void, Never>?
        /// The client's send waiting while `highWatermark` requests are unread.
        var requestSender: CheckedContinuation<Void, Never>?

        var responses: [[UInt8]] = []
        var initialMetadata: Metadata?
        /// How the call ended; `nil` while it goes on.
        var trailers: ResponseTrailers?
        var responseReader: CheckedContinuation<Void, Never>?
        var senders: [CheckedContinuation<Void, Never>] = []
        /// Whether the handler's task is done with the call: it finished, or handed the rest to a source.
        var released = false
        var doneWaiters: [CheckedContinuation<Void, Never>] = []

        var source: (any ResponseSource)?
        var pulling = false
        var pullAgain = false
        var deadline: Task<Void, Never>?

        /// The waiters of `waitUntilDone`, taken so that they are resumed outside the lock.
        mutating func takeDoneWaiters() -> [CheckedContinuation<Void, Never>] {
            defer { doneWaiters = [] }
            return doneWaiters
        }

        /// Queues a response message and takes the reader waiting for one; `nil` once the call ended.
        mutating func queueResponse(_ message: [UInt8]) -> CheckedContinuation<Void, Never>?? {
            guard trailers == nil else { return nil }
            responses.append(message)
            defer { responseReader = nil }
            return .some(responseReader)
        }

        /// Everything waiting, taken so that it is resumed outside the lock.
        mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
            var waiters = doneWaiters + senders
            if let requestReader { waiters.append(requestReader) }
            if let requestSender { waiters.append(requestSender) }
            requestSender = nil
            if let responseReader { waiters.append(responseReader) }
            doneWaiters = []
            senders = []
            requestReader = nil
            responseReader = nil
            return waiters
        }
    }

    init(head: RequestHead) {
        self.head = head
    }

    /// A call that ends with `error` before any handler runs (an unknown method, a refusal).
    init(refusedWith error: RPCError, head: RequestHead) {
        self.head = head
        state.withLock { $0.trailers = Self.asOnTheWire(ResponseTrailers(error: error)) }
    }

    /// Runs `route`'s handler in a task, and ends the call at its deadline.
    func start(_ route: Route) {
        if let deadline = head.deadline {
            let timer = Task { [self] in
                try? await Task.sleep(until: deadline, clock: .continuous)
                if !Task.isCancelled { end(ResponseTrailers(code: .deadlineExceeded, message: "deadline exceeded")) }
            }
            state.withLock { $0.deadline = timer }
        }
        let server = server
        Task { await route.run(server) }
    }

    /// Trailers as a client receives them over HTTP: the message and detail cut to the sizes sent.
    private static func asOnTheWire(_ trailers: ResponseTrailers) -> ResponseTrailers {
        let trailer = ErrorDetailNames.generic.trailer  // both ends are here: any name would do
        return trailers.isPlainOK ? trailers : ResponseTrailers(headerFields: trailers.headerFields(detailTrailer: trailer), detailTrailer: trailer)
    }

    /// Ends the call with `trailers` unless it has ended: wakes everyone waiting, stops the
    /// deadline, and closes the source.
    private func end(_ trailers: ResponseTrailers, lastMessage: [UInt8]? = nil, initialMetadata: Metadata? = nil) {
        let ended = state.withLock { state -> (waiters: [CheckedContinuation<Void, Never>], source: (any ResponseSource)?, deadline: Task<Void, Never>?)? in
            guard state.trailers == nil else { return nil }
            if let lastMessage { state.responses.append(lastMessage) }
            if state.initialMetadata == nil { state.initialMetadata = initialMetadata }
            state.trailers = Self.asOnTheWire(trailers)
            state.released = true
            let source = state.source
            state.source = nil
            return (state.takeWaiters(), source, state.deadline)
        }
        guard let ended else { return }
        ended.deadline?.cancel()
        for waiter in ended.waiters { waiter.resume() }
        ended.source?.streamClosed()
    }

    /// The call as its client sees it.
    var client: some ClientCallStream { ClientSide(call: self) }

    /// The call as the server's handler sees it.
    var server: some ServerCallStream { ServerSide(call: self) }

    /// Suspends until resumed, unless `ready` holds now; otherwise `park` leaves the
    /// continuation where whoever makes `ready` hold will resume it. Both run under the lock.
    private func suspend(
        unless ready: (borrowing State) -> Bool, park: (inout State, CheckedContinuation<Void, Never>) -> Void
    ) async {
        await withCheckedContinuation { continuation in
            let isReady = state.withLock { state -> Bool in
                if ready(state) { return true }
                park(&state, continuation)
                return false
            }
            if isReady { continuation.resume() }
        }
    }

    // MARK: The client's side

    /// Queues a request message (none: only the half-close); suspends while `highWatermark`
    /// requests are unread. Throws once the call has ended.
    func sendRequest(_ message: [UInt8]?, endOfStream: Bool) async throws(RPCError) {
        let reader = state.withLock { state -> CheckedContinuation<Void, Never>?? in
            guard state.trailers == nil, !state.requestEnded else { return nil }
            if let message { state.requests.append(message) }
            state.requestEnded = endOfStream
            defer { state.requestReader = nil }
            return .some(state.requestReader)
        }
        guard let reader else { throw RPCError(.cancelled, "the call has ended") }
        reader?.resume()
        await suspend(
            unless: { $0.requests.count < Self.highWatermark || $0.trailers != nil }, park: { $0.requestSender = $1 })
    }

    func receiveResponse() async throws(RPCError) -> [UInt8]? {
        while true {
            enum Next { case message([UInt8], sender: CheckedContinuation<Void, Never>?, pull: Bool), end(ResponseTrailers), wait }
            let next = state.withLock { state -> Next in
                if !state.responses.isEmpty {
                    let message = state.responses.removeFirst()
                    let sender = state.senders.isEmpty ? nil : state.senders.removeFirst()
                    return .message(message, sender: sender, pull: state.source != nil)
                }
                if let trailers = state.trailers { return .end(trailers) }
                return .wait
            }
            switch next {
            case .message(let message, let sender, let pull):
                sender?.resume()
                if pull { pullSource() }
                return message
            case .end(let trailers):
                if let error = trailers.error { throw error }
                return nil
            case .wait:
                await suspend(unless: { !$0.responses.isEmpty || $0.trailers != nil }, park: { $0.responseReader = $1 })
            }
        }
    }

    var initialMetadata: Metadata? { state.withLock { $0.initialMetadata } }

    var trailingMetadata: Metadata? { state.withLock { $0.trailers?.metadata } }

    func cancel() {
        end(ResponseTrailers(code: .cancelled, message: "the call was cancelled"))
    }

    // MARK: The server's side

    /// The next request message; `nil` after the client's half-close. Throws CANCELLED when
    /// the call ended before that.
    func receiveRequest() async throws(RPCError) -> [UInt8]? {
        while true {
            let (next, sender) = state.withLock { state -> (Result<[UInt8]?, RPCError>?, CheckedContinuation<Void, Never>?) in
                if !state.requests.isEmpty {
                    defer { state.requestSender = nil }
                    return (.success(state.requests.removeFirst()), state.requestSender)
                }
                if state.requestEnded { return (.success(nil), nil) }
                if state.trailers != nil { return (.failure(RPCError(.cancelled, "the call has ended")), nil) }
                return (nil, nil)
            }
            sender?.resume()
            if let next { return try next.get() }
            if Task.isCancelled { throw RPCError(.cancelled, "the reading task was cancelled") }
            await withTaskCancellationHandler {
                await suspend(
                    unless: { !$0.requests.isEmpty || $0.requestEnded || $0.trailers != nil || Task.isCancelled },
                    park: { $0.requestReader = $1 })
            } onCancel: {
                let reader = state.withLock { state in
                    defer { state.requestReader = nil }
                    return state.requestReader
                }
                reader?.resume()
            }
        }
    }

    func sendResponse(_ message: [UInt8], initialMetadata: Metadata) async throws(RPCError) {
        let queued = state.withLock { state in
            if state.initialMetadata == nil { state.initialMetadata = initialMetadata }
            return state.queueResponse(message)
        }
        guard let reader = queued else { throw RPCError(.cancelled, "the call has ended") }
        reader?.resume()
        await suspend(unless: { $0.responses.count <= Self.highWatermark || $0.trailers != nil }, park: { $0.senders.append($1) })
    }

    func finish(lastMessage: [UInt8]?, initialMetadata: Metadata, trailers: ResponseTrailers) {
        end(trailers, lastMessage: lastMessage, initialMetadata: initialMetadata)
    }

    func attach(_ source: any ResponseSource, initialMetadata: Metadata) {
        let attached = state.withLock { state -> [CheckedContinuation<Void, Never>]? in
            guard state.trailers == nil else { return nil }
            state.source = source
            if state.initialMetadata == nil { state.initialMetadata = initialMetadata }
            state.released = true
            return state.takeDoneWaiters()
        }
        guard let attached else {
            source.streamClosed()
            return
        }
        for waiter in attached { waiter.resume() }
        pullSource()
    }

    func wakeSource() {
        pullSource()
    }

    func waitUntilDone() async {
        await withTaskCancellationHandler {
            await suspend(unless: { $0.released || Task.isCancelled }, park: { $0.doneWaiters.append($1) })
        } onCancel: {
            for waiter in state.withLock({ $0.takeDoneWaiters() }) { waiter.resume() }
        }
    }

    /// Takes what the attached source has while the client has room, one pull at a time: a
    /// wake during a pull makes the puller go round again rather than pull beside it.
    private func pullSource() {
        let first = state.withLock { state -> Bool in
            if state.pulling {
                state.pullAgain = true
                return false
            }
            state.pulling = true
            return true
        }
        guard first else { return }
        while true {
            pull: while let source = state.withLock({ $0.responses.count < Self.highWatermark ? $0.source : nil }) {
                switch source.next() {
                case .message(let message):
                    state.withLock { $0.queueResponse(message) }??.resume()
                case .idle:
                    break pull
                case .end(let trailers):
                    end(trailers)
                    break pull
                }
            }
            let again = state.withLock { state -> Bool in
                if state.pullAgain {
                    state.pullAgain = false
                    return true
                }
                state.pulling = false
                return false
            }
            if !again { return }
        }
    }
}

/// An `InProcessCall` as its client's stream.
private struct ClientSide: ClientCallStream {
    let call: InProcessCall

    func send(_ message: [UInt8], endOfStream: Bool) async throws(RPCError) {
        try await call.sendRequest(message, endOfStream: endOfStream)
    }
    func endRequests() async throws(RPCError) { try await call.sendRequest(nil, endOfStream: true) }
    func receive() async throws(RPCError) -> [UInt8]? { try await call.receiveResponse() }
    var initialMetadata: Metadata? { call.initialMetadata }
    var trailingMetadata: Metadata? { call.trailingMetadata }
    func cancel() { call.cancel() }
}

/// An `InProcessCall` as its handler's stream.
private struct ServerSide: ServerCallStream {
    let call: InProcessCall

    var head: RequestHead { call.head }
    func receive() async throws(RPCError) -> [UInt8]? { try await call.receiveRequest() }
    func send(_ message: [UInt8], initialMetadata: Metadata) async throws(RPCError) {
        try await call.sendResponse(message, initialMetadata: initialMetadata)
    }
    func finish(lastMessage: [UInt8]?, initialMetadata: Metadata, trailers: ResponseTrailers) {
        call.finish(lastMessage: lastMessage, initialMetadata: initialMetadata, trailers: trailers)
    }
    func attach(_ source: any ResponseSource, initialMetadata: Metadata) { call.attach(source, initialMetadata: initialMetadata) }
    func wakeSource() { call.wakeSource() }
    func waitUntilDone() async { await call.waitUntilDone() }
}
