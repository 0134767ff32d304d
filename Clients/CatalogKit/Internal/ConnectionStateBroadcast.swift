import Synchronization

/// The state of a client's connections and the streams that follow it: each stream starts
/// with the state of the moment, then gets every change, and ends at `.shutdown`.
final class ConnectionStateBroadcast: Sendable {
    private struct Subscribers {
        var current: ConnectionState
        var streams: [Int: AsyncStream<ConnectionState>.Continuation] = [:]
        var nextID = 0
    }

    private let subscribers: Mutex<Subscribers>

    init(_ initial: ConnectionState) {
        subscribers = Mutex(Subscribers(current: initial))
    }

    var current: ConnectionState { subscribers.withLock { $0.current } }

    /// Records `state` and hands it to every stream; repeats of the current state are dropped.
    func publish(_ state: ConnectionState) {
        let ended: [AsyncStream<ConnectionState>.Continuation] = subscribers.withLock { subscribers in
            guard subscribers.current != state, subscribers.current != .shutdown else { return [] }
            subscribers.current = state
            for stream in subscribers.streams.values { stream.yield(state) }
            guard state == .shutdown else { return [] }
            defer { subscribers.streams = [:] }
            return Array(subscribers.streams.values)
        }
        // Outside the lock: finishing a stream runs its `onTermination`, which takes it.
        for stream in ended { stream.finish() }
    }

    /// A stream of the state now, then of each change.
    func stream() -> AsyncStream<ConnectionState> {
        let (stream, continuation) = AsyncStream.makeStream(of: ConnectionState.self, bufferingPolicy: .unbounded)
        let id: Int? = subscribers.withLock { subscribers in
            continuation.yield(subscribers.current)
            guard subscribers.current != .shutdown else {
                continuation.finish()
                return nil
            }
            let id = subscribers.nextID
            subscribers.nextID += 1
            subscribers.streams[id] = continuation
            return id
        }
        if let id {
            continuation.onTermination = { [weak self] _ in
                _ = self?.subscribers.withLock { $0.streams.removeValue(forKey: id) }
            }
        }
        return stream
    }
}
