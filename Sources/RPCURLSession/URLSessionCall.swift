import Foundation
import RPCCore
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One call of a `URLSessionTransport`: a URLSession data task and the messages cut from its
/// response, queued until `receive` takes them.
///
/// `send` starts the task (a Connect request carries its whole message in its body). The
/// session's delegate hands the response's bytes to `didReceive(_:response:)` as they arrive
/// and its end to `didComplete(error:response:)`; the call ends at the first of that end, the
/// end-of-stream message of a stream, `cancel()`, and its deadline.
final class URLSessionCall: ClientCallStream, Sendable {
    /// The largest response message accepted, in bytes; a larger one is RESOURCE_EXHAUSTED.
    static let maxMessageSize = 4 * 1024 * 1024

    private let method: MethodDescriptor
    private let options: CallOptions
    private let codec: URLSessionTransport.Codec
    private let baseURL: URL
    private let session: TransportSession
    private let deadline: ContinuousClock.Instant?
    private let state: Mutex<State>

    init(
        method: MethodDescriptor, options: CallOptions, codec: URLSessionTransport.Codec, baseURL: URL, session: TransportSession,
        errorDetailNames: ErrorDetailNames
    ) {
        self.method = method
        self.options = options
        self.codec = codec
        self.baseURL = baseURL
        self.session = session
        self.deadline = options.timeout.map { .now + $0 }
        self.state = Mutex(State(
            streaming: method.kind.serverStreaming, maxMessageSize: Self.maxMessageSize, detailType: errorDetailNames.connectType))
    }

    /// Starts the clock of the call's deadline, if it has one.
    func startDeadline() {
        guard let deadline else { return }
        let timer = Task { [weak self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            if !Task.isCancelled { self?.expire() }
        }
        if let unused = state.withLock({ $0.keepTimer(timer) }) { unused.cancel() }
    }

    // MARK: ClientCallStream

    func send(_ message: [UInt8], endOfStream: Bool) async throws(RPCError) {
        let remaining = deadline.map { $0 - .now }
        if let remaining, remaining <= .zero {
            expire()
            return
        }
        guard state.withLock({ $0.claimStart() }) else { return }
        let request = ConnectRequest.make(
            baseURL: baseURL, method: method, codec: codec, options: options, remaining: remaining, message: message)
        let task = session.dataTask(with: request, for: self)
        if state.withLock({ $0.keepTask(task) }) {
            task.resume()
        } else {
            session.discard(task)
        }
    }

    /// Never called: `URLSessionTransport` opens no call of a client-streaming method.
    func endRequests() async throws(RPCError) {
        throw RPCError(.unimplemented, "URLSessionTransport sends one request message")
    }

    func receive() async throws(RPCError) -> [UInt8]? {
        while true {
            switch state.withLock({ $0.takeNext() }) {
            case .message(let message): return message
            case .end(.ok): return nil
            case .end(.failed(let error)): throw error
            case .wait:
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    if !state.withLock({ $0.park(continuation) }) { continuation.resume() }
                }
            }
        }
    }

    var initialMetadata: Metadata? { state.withLock { $0.head?.headerMetadata } }

    var trailingMetadata: Metadata? { state.withLock { $0.trailingMetadata } }

    func cancel() {
        end(.failed(RPCError(.cancelled, "the call was cancelled")), local: true)
    }

    // MARK: The session's events

    /// Bytes of the response's body; `response` is the task's, known since its head arrived.
    func didReceive(_ data: Data, response: URLResponse?) {
        let head = state.withLock { $0.head == nil } ? (response as? HTTPURLResponse).map(ConnectResponseHead.init) : nil
        state.withLock { $0.receive(data, head: head, expecting: expectedContentType) }?.run()
    }

    /// The task ended: its whole body arrived (`error` is `nil`) or it failed.
    func didComplete(error: (any Error)?, response: URLResponse?) {
        if let error {
            end(.failed(transportError(error)), local: false)
            return
        }
        let head = (response as? HTTPURLResponse).map(ConnectResponseHead.init)
        state.withLock { $0.complete(head: head, expecting: expectedContentType) }?.run()
    }

    /// The content type of a successful response.
    private var expectedContentType: String { codec.wireContentType(method.kind).headerValue }

    // MARK: Ending

    private func expire() {
        end(.failed(RPCError(.deadlineExceeded, "the call's deadline passed")), local: true)
    }

    /// Ends the call with `outcome` unless it has ended. A `local` end (a cancel, the deadline)
    /// drops the messages not yet received and cancels the task.
    private func end(_ outcome: Outcome, local: Bool) {
        state.withLock { $0.end(outcome, discardingMessages: local, cancellingTask: local) }?.run()
    }

    /// The error of a task that URLSession failed: a connection refused or lost, a name not
    /// found, the idle timeout. The call may not have reached the server: UNAVAILABLE, as
    /// connect-go and gRPC say of a transport that failed (DEADLINE_EXCEEDED once the call's
    /// deadline passed).
    private func transportError(_ error: any Error) -> RPCError {
        let url = ConnectRequest.url(baseURL, method)
        let code: StatusCode = if let deadline, deadline <= .now { .deadlineExceeded } else { .unavailable }
        if let error = error as? URLError {
            return RPCError(code, "URLSession failed the request to \(url): \(error.localizedDescription) (URLError \(error.code.rawValue))", cause: error)
        }
        return RPCError(code, "URLSession failed the request to \(url): \(error)", cause: error)
    }
}

extension URLSessionCall {
    /// How a call ended.
    enum Outcome: Sendable {
        case ok
        case failed(RPCError)
    }

    /// What `receive` does next.
    enum Next {
        case message([UInt8])
        case end(Outcome)
        case wait
    }

    /// What to do once the lock is let go: wake the receiver, stop the deadline's timer, cancel the task.
    struct Wake {
        var waiter: CheckedContinuation<Void, Never>?
        var timer: Task<Void, Never>?
        var task: URLSessionDataTask?

        func run() {
            waiter?.resume()
            timer?.cancel()
            task?.cancel()
        }
    }
}
