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

        /// Everything waiting, taken so that it is resumed outside the lock.
        mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
            var waiters = doneWaiters + senders
            if let requestReader { waiters.append(requestReader) }
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
        trailers.isPlainOK ? trailers : ResponseTrailers(headerFields: trailers.headerFields)
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

    // MARK: The client's side

    func sendRequest(_ message: [UInt8], endOfStream: Bool) {
        let reader = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.trailers == nil else { return nil }
            state.requests.append(message)
            state.requestEnded = endOfStream
            defer { state.requestReader = nil }
            return state.requestReader
        }
        reader?.resume()
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
                await withCheckedContinuation { continuation in
                    let ready = state.withLock { state -> Bool in
                        guard state.responses.isEmpty, state.trailers == nil else { return true }
                        state.responseReader = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            }
        }
    }

    var initialMetadata: Metadata? { state.withLock { $0.initialMetadata } }

    var trailingMetadata: Metadata? { state.withLock { $0.trailers?.metadata } }

    func cancel() {
        end(ResponseTrailers(code: .cancelled, message: "the call was cancelled"))
    }

    // MARK: The server's side

    func receiveRequest() async -> [UInt8]? {
        while true {
            let next = state.withLock { state -> [UInt8]?? in
                if !state.requests.isEmpty { return .some(state.requests.removeFirst()) }
                if state.requestEnded || state.trailers != nil { return .some(nil) }
                return .none
            }
            if let next { return next }
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Bool in
                    guard state.requests.isEmpty, !state.requestEnded, state.trailers == nil else { return true }
                    state.requestReader = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        }
    }

    func sendResponse(_ message: [UInt8], initialMetadata: Metadata) async throws(RPCError) {
        enum Sent { case ended, sent(reader: CheckedContinuation<Void, Never>?, full: Bool) }
        let sent = state.withLock { state -> Sent in
            guard state.trailers == nil else { return .ended }
            if state.initialMetadata == nil { state.initialMetadata = initialMetadata }
            state.responses.append(message)
            defer { state.responseReader = nil }
            return .sent(reader: state.responseReader, full: state.responses.count > Self.highWatermark)
        }
        guard case .sent(let reader, let full) = sent else { throw RPCError(.cancelled, "the call has ended") }
        reader?.resume()
        guard full else { return }
        await withCheckedContinuation { continuation in
            let roomOrEnded = state.withLock { state -> Bool in
                guard state.responses.count > Self.highWatermark, state.trailers == nil else { return true }
                state.senders.append(continuation)
                return false
            }
            if roomOrEnded { continuation.resume() }
        }
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
            defer { state.doneWaiters = [] }
            return state.doneWaiters
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
            await withCheckedContinuation { continuation in
                let done = state.withLock { state -> Bool in
                    guard !state.released, !Task.isCancelled else { return true }
                    state.doneWaiters.append(continuation)
                    return false
                }
                if done { continuation.resume() }
            }
        } onCancel: {
            let waiters = state.withLock { state in
                defer { state.doneWaiters = [] }
                return state.doneWaiters
            }
            for waiter in waiters { waiter.resume() }
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
                    let reader = state.withLock { state -> CheckedContinuation<Void, Never>? in
                        guard state.trailers == nil else { return nil }
                        state.responses.append(message)
                        defer { state.responseReader = nil }
                        return state.responseReader
                    }
                    reader?.resume()
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

    func send(_ message: [UInt8], endOfStream: Bool) async throws(RPCError) { call.sendRequest(message, endOfStream: endOfStream) }
    func receive() async throws(RPCError) -> [UInt8]? { try await call.receiveResponse() }
    var initialMetadata: Metadata? { call.initialMetadata }
    var trailingMetadata: Metadata? { call.trailingMetadata }
    func cancel() { call.cancel() }
}

/// An `InProcessCall` as its handler's stream.
private struct ServerSide: ServerCallStream {
    let call: InProcessCall

    var head: RequestHead { call.head }
    func receive() async throws(RPCError) -> [UInt8]? { await call.receiveRequest() }
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
