import Synchronization

/// Whether the database can be reached, told to each follower of `stream()`: the value now,
/// then each change, in order.
final class ReachabilityBroadcast: Sendable {
    private struct State {
        var reachable = true
        var next = 0
        var followers: [Int: AsyncStream<Bool>.Continuation] = [:]
    }

    private let state = Mutex(State())

    /// Records `reachable` and tells the followers when it changed.
    func publish(_ reachable: Bool) {
        state.withLock { state in
            guard state.reachable != reachable else { return }
            state.reachable = reachable
            for follower in state.followers.values { follower.yield(reachable) }
        }
    }

    /// The value now, then each change, until the reading task is cancelled.
    func stream() -> AsyncStream<Bool> {
        let (stream, continuation) = AsyncStream.makeStream(of: Bool.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            let id = state.next
            state.next += 1
            state.followers[id] = continuation
            continuation.yield(state.reachable)
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.followers.removeValue(forKey: id) }
        }
        return stream
    }
}
