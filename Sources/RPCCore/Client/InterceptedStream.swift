import Synchronization

extension [any ClientInterceptor] {
    /// Opens a streaming call through these interceptors so that they see it to its end: the
    /// chain runs in a task of its own, and its `next` returns once the stream has ended (OK),
    /// or throws how it ended (its status; CANCELLED when the caller cancelled or released it).
    /// The caller gets the stream as soon as it is open; the receive that finds its end returns
    /// once the interceptors have seen it. An interceptor that calls `next` again
    /// after the stream was handed out gets the first stream's end again: a stream whose
    /// messages were read is not opened twice. With no interceptor the call is opened directly.
    package func openStream(
        _ call: ClientCallContext, _ open: @escaping @Sendable (ClientCallContext) async throws(RPCError) -> any ClientCallStream
    ) async throws(RPCError) -> any ClientCallStream {
        if isEmpty { return try await open(call) }
        let handoff = StreamHandoff()
        // Unstructured: the chain outlives this call, which returns the stream while the
        // interceptors wait for its end; the stream's end (or its release) ends the task.
        let chain = Task { [self] in
            do throws(RPCError) {
                _ = try await run(call) { (call) async throws(RPCError) -> StreamEnded in
                    try await handoff.attempt { () async throws(RPCError) in try await open(call) }
                }
            } catch {
                handoff.refused(error)
            }
            handoff.chainEnded()
        }
        let opened = await withTaskCancellationHandler {
            await handoff.opened()
        } onCancel: {
            chain.cancel()
        }
        return try opened.get()
    }
}

/// What a stream's interceptors see `next` return: the stream ended OK.
struct StreamEnded: Sendable {}

/// Hands the stream an interceptor chain opened to the caller waiting for it, or the error that
/// kept it from opening.
final class StreamHandoff: Sendable {
    private enum State {
        case waiting(CheckedContinuation<Result<any ClientCallStream, RPCError>, Never>?)
        case handedOut(ObservedCallStream)
        case failed(RPCError)
    }

    private let state = Mutex(State.waiting(nil))

    /// Opens the stream (the innermost `next`), hands it out, and waits for its end; after the
    /// first stream was handed out, waits for that one's end again.
    func attempt(_ open: () async throws(RPCError) -> any ClientCallStream) async throws(RPCError) -> StreamEnded {
        let handedOut = state.withLock { state -> ObservedCallStream? in
            if case .handedOut(let stream) = state { return stream }
            return nil
        }
        if let handedOut {
            try await handedOut.ended()
            return StreamEnded()
        }
        let stream = ObservedCallStream(try await open())
        let waiter = state.withLock { state -> CheckedContinuation<Result<any ClientCallStream, RPCError>, Never>?? in
            guard case .waiting(let waiter) = state else { return nil }
            state = .handedOut(stream)
            return .some(waiter)
        }
        guard let waiter else {
            stream.cancel()  // the caller went away meanwhile
            throw RPCError(.cancelled, "the stream's caller went away")
        }
        waiter?.resume(returning: .success(stream))
        try await stream.ended()
        return StreamEnded()
    }

    /// The chain ended without handing out a stream, with `error`; after one was handed out,
    /// the stream's own end tells the caller.
    func refused(_ error: RPCError) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<any ClientCallStream, RPCError>, Never>?? in
            guard case .waiting(let waiter) = state else { return nil }
            state = .failed(error)
            return .some(waiter)
        }
        waiter??.resume(returning: .failure(error))
    }

    /// The interceptors are done with the stream handed out, if any.
    func chainEnded() {
        let stream = state.withLock { state -> ObservedCallStream? in
            if case .handedOut(let stream) = state { return stream }
            return nil
        }
        stream?.interceptorsDone()
    }

    /// The stream once open, or what kept it from opening.
    func opened() async -> Result<any ClientCallStream, RPCError> {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Result<any ClientCallStream, RPCError>? in
                switch state {
                case .waiting:
                    state = .waiting(continuation)
                    return nil
                case .handedOut(let stream): return .success(stream)
                case .failed(let error): return .failure(error)
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

/// A call whose end is known to whoever waits for it: when `receive` returns `nil` (OK) or
/// throws, or the call is cancelled. The receive that finds the end returns once the
/// interceptors are done with it (`interceptorsDone()`).
final class ObservedCallStream: ClientCallStream {
    private struct State {
        var end: Result<Void, RPCError>?
        var waiters: [CheckedContinuation<Result<Void, RPCError>, Never>] = []
        var interceptorsDone = false
        var receiversWaiting: [CheckedContinuation<Void, Never>] = []
    }

    private let call: any ClientCallStream
    private let state = Mutex(State())

    init(_ call: any ClientCallStream) {
        self.call = call
    }

    func send(_ message: [UInt8], endOfStream: Bool) async throws(RPCError) {
        try await call.send(message, endOfStream: endOfStream)
    }

    func endRequests() async throws(RPCError) {
        try await call.endRequests()
    }

    func receive() async throws(RPCError) -> [UInt8]? {
        do {
            guard let message = try await call.receive() else {
                end(.success(()))
                await untilInterceptorsDone()
                return nil
            }
            return message
        } catch {
            end(.failure(error))
            await untilInterceptorsDone()
            throw error
        }
    }

    /// The interceptors have seen the end.
    func interceptorsDone() {
        let receivers = state.withLock { state in
            state.interceptorsDone = true
            defer { state.receiversWaiting = [] }
            return state.receiversWaiting
        }
        for receiver in receivers { receiver.resume() }
    }

    private func untilInterceptorsDone() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if !state.interceptorsDone { state.receiversWaiting.append(continuation) }
                return state.interceptorsDone
            }
            if done { continuation.resume() }
        }
    }

    var initialMetadata: Metadata? { call.initialMetadata }
    var trailingMetadata: Metadata? { call.trailingMetadata }

    func cancel() {
        call.cancel()
        end(.failure(RPCError(.cancelled, "the client cancelled the stream")))
    }

    /// Returns once the call ended OK; throws how it ended otherwise.
    func ended() async throws(RPCError) {
        let end = await withCheckedContinuation { continuation in
            let end = state.withLock { state -> Result<Void, RPCError>? in
                if state.end == nil { state.waiters.append(continuation) }
                return state.end
            }
            if let end { continuation.resume(returning: end) }
        }
        try end.get()
    }

    private func end(_ outcome: Result<Void, RPCError>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Result<Void, RPCError>, Never>] in
            guard state.end == nil else { return [] }
            state.end = outcome
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }
}
