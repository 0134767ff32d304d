import RPCCore
import Synchronization

/// An in-memory `ServerCallStream`: serves a scripted list of request messages, records what
/// the router sends and how it finishes the call, and is aborted when the test says so.
final class FakeServerCallStream: ServerCallStream {
    /// One `send(_:initialMetadata:)` call.
    struct Sent: Sendable, Equatable {
        var message: [UInt8]
        var initialMetadata: Metadata
    }

    /// One `finish(lastMessage:initialMetadata:trailers:)` call.
    struct Finished: Sendable, Equatable {
        var lastMessage: [UInt8]?
        var initialMetadata: Metadata
        var trailers: ResponseTrailers
    }

    private struct State {
        var requests: [Result<[UInt8], RPCError>]
        var receiveCount = 0
        var sent: [Sent] = []
        var finished: [Finished] = []
        var waitEndedByAbort: Bool?
        var aborted = false
        var source: (any ResponseSource)?
        var wakes = 0
    }

    let head: RequestHead
    private let state: Mutex<State>
    private let abortSignal: AsyncStream<Never>
    private let abortContinuation: AsyncStream<Never>.Continuation

    /// A call whose client sends `requests`, in order, then ends its side of the stream.
    /// A `.failure` makes `receive()` throw, as a transport does for a malformed request.
    init(
        requests: [Result<[UInt8], RPCError>],
        path: String = "/test",
        metadata: Metadata = [:],
        deadline: ContinuousClock.Instant? = nil
    ) {
        head = RequestHead(path: path, contentType: .grpc, metadata: metadata, deadline: deadline, peer: "fake-peer")
        state = Mutex(State(requests: requests))
        (abortSignal, abortContinuation) = AsyncStream.makeStream(of: Never.self)
    }

    /// A call whose client sends these JSON texts as request messages.
    convenience init(jsonRequests: [String], path: String = "/test", metadata: Metadata = [:]) {
        self.init(requests: jsonRequests.map { .success(Array($0.utf8)) }, path: path, metadata: metadata)
    }

    // MARK: What the test sees

    /// Every message sent, in order.
    var sent: [Sent] { state.withLock { $0.sent } }
    /// Every finish call, in order; the router must make exactly one.
    var finished: [Finished] { state.withLock { $0.finished } }
    /// How many times the router called `receive()`.
    var receiveCount: Int { state.withLock { $0.receiveCount } }
    /// `true` when `waitUntilDone()` ended because of `abort()`, `false` when it ended
    /// because the call finished, `nil` while it has not ended.
    var waitEndedByAbort: Bool? { state.withLock { $0.waitEndedByAbort } }

    /// The attached response source, if the route attached one.
    var source: (any ResponseSource)? { state.withLock { $0.source } }
    /// How many times the source asked to be pulled.
    var wakes: Int { state.withLock { $0.wakes } }

    /// Aborts the call, as a client reset or an expired deadline would.
    func abort() {
        state.withLock { $0.aborted = true }
        abortContinuation.finish()
    }

    // MARK: ServerCallStream

    func receive() async throws(RPCError) -> [UInt8]? {
        let next: Result<[UInt8], RPCError>? = state.withLock { state in
            state.receiveCount += 1
            return state.requests.isEmpty ? nil : state.requests.removeFirst()
        }
        return try next?.get()
    }

    func send(_ message: [UInt8], initialMetadata: Metadata) async throws(RPCError) {
        state.withLock { $0.sent.append(Sent(message: message, initialMetadata: initialMetadata)) }
    }

    func finish(lastMessage: [UInt8]?, initialMetadata: Metadata, trailers: ResponseTrailers) {
        state.withLock {
            $0.finished.append(Finished(lastMessage: lastMessage, initialMetadata: initialMetadata, trailers: trailers))
        }
        abortContinuation.finish()
    }

    func attach(_ source: any ResponseSource, initialMetadata: Metadata) {
        state.withLock { $0.source = source }
        abortContinuation.finish()
    }

    func wakeSource() {
        state.withLock { $0.wakes += 1 }
    }

    func waitUntilDone() async {
        // Ends when `finish` or `abort()` ends the signal, or at once when this task is cancelled.
        for await _ in abortSignal {}
        state.withLock { $0.waitEndedByAbort = $0.aborted }
    }
}
