import RPCCore
import Synchronization

/// An in-memory `ClientTransport` whose one call is a `FakeClientCallStream`.
final class FakeClientTransport: ClientTransport {
    let call: FakeClientCallStream
    private let opened = Mutex<[(MethodDescriptor, CallOptions)]>([])
    private let openError: RPCError?

    init(call: FakeClientCallStream, openError: RPCError? = nil) {
        self.call = call
        self.openError = openError
    }

    /// Every call opened, with its options.
    var openedCalls: [(method: MethodDescriptor, options: CallOptions)] { opened.withLock { $0 } }

    func openCall(_ method: MethodDescriptor, options: CallOptions) async throws(RPCError) -> any ClientCallStream {
        opened.withLock { $0.append((method, options)) }
        if let openError { throw openError }
        return call
    }
}

/// An in-memory `ClientCallStream`: serves scripted responses, records requests and cancels.
final class FakeClientCallStream: ClientCallStream {
    private struct State {
        var responses: [Result<[UInt8], RPCError>]
        var sent: [(message: [UInt8], endOfStream: Bool)] = []
        var cancelCount = 0
    }

    private let state: Mutex<State>
    private let hangsAtEnd: Bool
    private let cancelSignal: AsyncStream<Never>
    private let cancelContinuation: AsyncStream<Never>.Continuation
    private let waitingContinuation: AsyncStream<Void>.Continuation

    /// Yields each time `receive()` starts waiting for a response that never comes.
    let waiting: AsyncStream<Void>

    let initialMetadata: Metadata?
    let trailingMetadata: Metadata?

    /// A call answered with `responses`, then `nil` (an OK end), or, with `hangsAtEnd`, no
    /// further answer until the call is cancelled.
    init(
        responses: [Result<[UInt8], RPCError>],
        hangsAtEnd: Bool = false,
        initialMetadata: Metadata? = nil,
        trailingMetadata: Metadata? = nil
    ) {
        state = Mutex(State(responses: responses))
        self.hangsAtEnd = hangsAtEnd
        self.initialMetadata = initialMetadata
        self.trailingMetadata = trailingMetadata
        (cancelSignal, cancelContinuation) = AsyncStream.makeStream(of: Never.self)
        (waiting, waitingContinuation) = AsyncStream.makeStream(of: Void.self)
    }

    /// Every message sent, in order.
    var sent: [(message: [UInt8], endOfStream: Bool)] { state.withLock { $0.sent } }
    /// How many times the client cancelled the call.
    var cancelCount: Int { state.withLock { $0.cancelCount } }

    func send(_ message: [UInt8], endOfStream: Bool) async throws(RPCError) {
        state.withLock { $0.sent.append((message, endOfStream)) }
    }

    func endRequests() async throws(RPCError) {
        state.withLock { $0.sent.append(([], true)) }
    }

    func receive() async throws(RPCError) -> [UInt8]? {
        let next: Result<[UInt8], RPCError>? = state.withLock { state in
            state.responses.isEmpty ? nil : state.responses.removeFirst()
        }
        if let next { return try next.get() }
        guard hangsAtEnd else { return nil }
        waitingContinuation.yield()
        for await _ in cancelSignal {}
        throw RPCError(.cancelled, "the call was cancelled")
    }

    func cancel() {
        state.withLock { $0.cancelCount += 1 }
        cancelContinuation.finish()
    }
}
