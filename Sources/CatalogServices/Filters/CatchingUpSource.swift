import RPCCore
import Synchronization

/// A Watch that a replica could not start at once because the filter, or the revision the
/// client resumes from, was made on another replica and has not reached this one yet. The
/// stream stays silent while `attempt` catches up with the store and subscribes again; then it
/// is that subscription, or ends with the error that attempt met.
final class CatchingUpSource: ResponseSource {
    private enum State {
        case waiting(closed: Bool)
        case subscribed(any ResponseSource)
        case failed(ResponseTrailers)
    }

    private let state = Mutex(State.waiting(closed: false))

    /// Starts `attempt` in a task and wakes `waker` when it is done.
    init(waker: ResponseWaker, attempt: @escaping @Sendable () async -> Result<any ResponseSource, RPCError>) {
        Task { [self] in
            let outcome = await attempt()
            let unwanted: (any ResponseSource)? = state.withLock { state in
                switch outcome {
                case .success(let source):
                    if case .waiting(closed: true) = state { return source }
                    state = .subscribed(source)
                case .failure(let error):
                    state = .failed(ResponseTrailers(error: error))
                }
                return nil
            }
            unwanted?.streamClosed()  // the client went away meanwhile
            waker.wake()
        }
    }

    func next() -> ResponsePull {
        let current = state.withLock { $0 }
        switch current {
        case .waiting: return .idle
        case .subscribed(let source): return source.next()
        case .failed(let trailers): return .end(trailers)
        }
    }

    func streamClosed() {
        let subscribed: (any ResponseSource)? = state.withLock { state in
            switch state {
            case .subscribed(let source): return source
            case .waiting: state = .waiting(closed: true)
            case .failed: break
            }
            return nil
        }
        subscribed?.streamClosed()
    }
}
