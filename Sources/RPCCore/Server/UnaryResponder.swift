import Synchronization

/// How a handler registered with `.inline(responder:)` (see `MethodHandler`) answers its call: once,
/// at once (before the handler returns) or later, from any thread.
public struct UnaryResponder<Response: Encodable & Sendable>: Sendable {
    let pending: PendingUnaryResponse

    /// Answers with `response` and OK; a second answer is ignored.
    public func succeed(_ response: Response) {
        pending.complete(Result { try pending.codec.encode(response) })
    }

    /// Answers with the status `error` maps to (see `RPCError(mapping:)`); a second answer is ignored.
    public func fail(_ error: any Error) {
        pending.complete(.failure(error))
    }

    /// Answers with `result`.
    public func complete(_ result: Result<Response, some Error>) {
        switch result {
        case .success(let response): succeed(response)
        case .failure(let error): fail(error)
        }
    }
}

/// The response of one call answered through a `UnaryResponder`: the source the transport
/// pulls, which has nothing until the answer comes, then the message, then the trailers.
final class PendingUnaryResponse: ResponseSource {
    private enum State {
        /// No answer yet; `waiting` once the handler returned, so an answer must wake the transport.
        case unanswered(waiting: Bool)
        case answered(Result<[UInt8], any Error>)
        case sent
    }

    let codec: any MessageCodec
    private let context: ServerContext
    private let waker: ResponseWaker
    private let state = Mutex(State.unanswered(waiting: false))

    init(codec: any MessageCodec, context: ServerContext, waker: ResponseWaker) {
        self.codec = codec
        self.context = context
        self.waker = waker
    }

    /// Keeps the first answer; wakes the transport when it already asked for one.
    func complete(_ result: Result<[UInt8], any Error>) {
        let wake = state.withLock { state -> Bool in
            guard case .unanswered(let waiting) = state else { return false }
            state = .answered(result)
            return waiting
        }
        if wake { waker.wake() }
    }

    /// The handler returned: an answer from now on comes from elsewhere and must wake the transport.
    func handlerReturned() {
        state.withLock { state in
            if case .unanswered = state { state = .unanswered(waiting: true) }
        }
    }

    func next() -> ResponsePull {
        state.withLock { state -> ResponsePull in
            switch state {
            case .unanswered:
                return .idle
            case .answered(.success(let message)):
                state = .sent
                return .message(message)
            case .answered(.failure(let error)):
                state = .sent
                return .end(ResponseTrailers(error: RPCError(mapping: error)))
            case .sent:
                return .end(.ok(context.trailingMetadata))
            }
        }
    }

    func streamClosed() {}
}
