import DequeModule
import RPCCore
import RPCFraming
import Synchronization

/// The client's side of one in-process call: what it sends goes to the connection's loop,
/// framed, within the call's send window; what the call answers arrives here, framed, and is
/// read message by message. The connection stops reading the call's response body while the
/// client leaves `InProcessConnection.receiveWindow` bytes unread.
final class InProcessClientCall: ClientCallStream, @unchecked Sendable {
    private let connection: InProcessConnection
    /// Keeps the transport's connection open while the call lives.
    private let owner: AnyObject
    /// The call's id on the connection.
    let streamID: Int32
    private let state: Mutex<State>

    private struct State: ~Copyable {
        var deframer = MessageDeframer(maxMessageSize: Int(Int32.max))
        var messages = Deque<[UInt8]>()
        var unreadBytes = 0
        /// Whether the connection stopped reading the response body until the client reads.
        var heldBack = false
        var initialMetadata: Metadata?
        /// How the call ended; `nil` while it goes on.
        var trailers: ResponseTrailers?
        var receiver: CheckedContinuation<Void, Never>?
        /// Request bytes the call may still take before it credits some back.
        var sendWindow = InProcessConnection.sendWindow
        var sender: CheckedContinuation<Void, Never>?
        /// Whether the client half-closed, or the call takes no more requests.
        var requestsClosed = false
        /// Whether the call was started on the connection.
        var started = false

        mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
            defer {
                receiver = nil
                sender = nil
            }
            return [receiver, sender].compactMap { $0 }
        }
    }

    /// What starts the call on the connection: sent with the first request bytes (or the first
    /// read), so that a unary call reaches the loop once.
    private let opening: Opening

    private struct Opening: Sendable {
        let path: String
        let contentType: String
        let options: CallOptions
    }

    init(connection: InProcessConnection, owner: AnyObject, path: String, contentType: String, options: CallOptions) {
        self.connection = connection
        self.owner = owner
        self.streamID = connection.makeStreamID()
        self.opening = Opening(path: path, contentType: contentType, options: options)
        self.state = Mutex(State())
    }

    /// Runs `job` on the connection's loop, after starting the call there if it has not started.
    private func onLoop(_ job: @escaping @Sendable (InProcessConnection, Int32) -> Void) {
        let start = state.withLock { state in
            defer { state.started = true }
            return !state.started
        }
        guard start else { return tell(job) }
        let opening = opening
        tell { [self] connection, id in
            connection.start(self, path: opening.path, contentType: opening.contentType, options: opening.options)
            job(connection, id)
        }
    }

    /// Runs `job` on the connection's loop, for this call (which it does not hold: a call let go
    /// may still be told there).
    private func tell(_ job: @escaping @Sendable (InProcessConnection, Int32) -> Void) {
        let connection = connection
        let id = streamID
        connection.loop.execute { job(connection, id) }
    }

    deinit {
        // A call let go before its end is cancelled, as a network stream is reset.
        let open = state.withLock { $0.trailers == nil && $0.started }
        if open {
            tell { connection, id in connection.cancel(id) }
        }
    }

    // MARK: ClientCallStream

    func send(_ message: [UInt8], endOfStream: Bool) async throws(RPCError) {
        try await sendFramed(FramedMessage(message, compression: .identity).bytes, endOfStream: endOfStream)
    }

    func endRequests() async throws(RPCError) {
        try await sendFramed([], endOfStream: true)
    }

    private func sendFramed(_ framed: [UInt8], endOfStream: Bool) async throws(RPCError) {
        // Waits while the window is spent: a handler that reads slowly holds the client back.
        while true {
            let admitted = state.withLock { state -> Bool? in
                if state.trailers != nil || state.requestsClosed { return nil }
                if state.sendWindow <= 0 && !framed.isEmpty { return false }
                state.sendWindow -= framed.count
                if endOfStream { state.requestsClosed = true }
                return true
            }
            guard let admitted else { throw RPCError(.cancelled, "the call has ended") }
            if admitted { break }
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state in
                    guard state.sendWindow <= 0, state.trailers == nil else { return true }
                    state.sender = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        }
        onLoop { connection, id in connection.receive(framed, endOfStream: endOfStream, on: id) }
    }

    func receive() async throws(RPCError) -> [UInt8]? {
        while true {
            enum Next { case message([UInt8], resume: Bool), end(ResponseTrailers), wait }
            let next = state.withLock { state -> Next in
                if let message = state.messages.popFirst() {
                    state.unreadBytes -= message.count
                    let resume = state.heldBack && state.unreadBytes <= InProcessConnection.receiveWindow / 2
                    if resume { state.heldBack = false }
                    return .message(message, resume: resume)
                }
                if let trailers = state.trailers { return .end(trailers) }
                return .wait
            }
            switch next {
            case .message(let message, let resume):
                if resume {
                    tell { connection, id in connection.resumeReading(id) }
                }
                return message
            case .end(let trailers):
                if let error = trailers.error { throw error }
                return nil
            case .wait:
                if !state.withLock({ $0.started }) { onLoop { _, _ in } }
                await withCheckedContinuation { continuation in
                    let ready = state.withLock { state in
                        guard state.messages.isEmpty, state.trailers == nil else { return true }
                        state.receiver = continuation
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
        guard ended(ResponseTrailers(code: .cancelled, message: "the call was cancelled")),
            state.withLock({ $0.started })
        else { return }
        tell { connection, id in connection.cancel(id) }
    }

    // MARK: From the connection (on its loop)

    func receivedHead(_ metadata: Metadata) {
        state.withLock { $0.initialMetadata = metadata }
    }

    /// Whether the client has room for more of the response.
    var hasRoom: Bool { state.withLock { $0.unreadBytes < InProcessConnection.receiveWindow } }

    /// Response body bytes: the messages they complete are queued for the client.
    func received(_ bytes: ArraySlice<UInt8>) {
        let outcome = state.withLock { state -> (CheckedContinuation<Void, Never>?, RPCError?) in
            do throws(RPCError) {
                try state.deframer.append(Array(bytes))
                while let message = try state.deframer.next() {
                    state.messages.append(message)
                    state.unreadBytes += message.count
                }
            } catch {
                return (nil, error)
            }
            defer { state.receiver = nil }
            return (state.receiver, nil)
        }
        outcome.0?.resume()
        if let error = outcome.1 { ended(ResponseTrailers(error: error)) }
    }

    /// The connection stopped reading the response body until the client reads.
    func holdBack() {
        let resume = state.withLock { state in
            state.heldBack = true
            // The client may have read everything meanwhile.
            guard state.unreadBytes <= InProcessConnection.receiveWindow / 2 else { return false }
            state.heldBack = false
            return true
        }
        if resume {
            tell { connection, id in connection.resumeReading(id) }
        }
    }

    /// The call credits `count` request bytes back.
    func credit(_ count: Int) {
        let sender = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.sendWindow += count
            guard state.sendWindow > 0 else { return nil }
            defer { state.sender = nil }
            return state.sender
        }
        sender?.resume()
    }

    /// The call takes no more requests (it was answered in full).
    func requestsRefused() {
        let waiters = state.withLock { state in
            state.requestsClosed = true
            defer { state.sender = nil }
            return state.sender
        }
        waiters?.resume()
    }

    /// The call ended with `trailers`, unless it had already; returns whether it had not.
    @discardableResult
    func ended(_ trailers: ResponseTrailers) -> Bool {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>]? in
            guard state.trailers == nil else { return nil }
            state.trailers = trailers
            return state.takeWaiters()
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter.resume() }
        return true
    }
}
