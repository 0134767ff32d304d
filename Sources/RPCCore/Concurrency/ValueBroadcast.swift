import Synchronization

/// A value and the streams that follow it: each stream starts with the value of the moment,
/// then gets every change. Publishing with `finishing` ends every stream after that value;
/// later publications are dropped, and later streams get the last value, then end.
package final class ValueBroadcast<Value: Equatable & Sendable>: Sendable {
    private struct Subscribers {
        var current: Value
        var finished = false
        var streams: [Int: AsyncStream<Value>.Continuation] = [:]
        var nextID = 0
    }

    private let subscribers: Mutex<Subscribers>

    package init(_ initial: Value) {
        subscribers = Mutex(Subscribers(current: initial))
    }

    package var current: Value { subscribers.withLock { $0.current } }

    /// Records `value` and hands it to every stream; repeats of the current value are dropped.
    /// With `finishing`, the streams end after it.
    package func publish(_ value: Value, finishing: Bool) {
        let ended: [AsyncStream<Value>.Continuation] = subscribers.withLock { subscribers in
            guard subscribers.current != value, !subscribers.finished else { return [] }
            subscribers.current = value
            for stream in subscribers.streams.values { stream.yield(value) }
            guard finishing else { return [] }
            subscribers.finished = true
            defer { subscribers.streams = [:] }
            return Array(subscribers.streams.values)
        }
        // Outside the lock: finishing a stream runs its `onTermination`, which takes it.
        for stream in ended { stream.finish() }
    }

    /// A stream of the value now, then of each change.
    package func stream() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .unbounded)
        let id: Int? = subscribers.withLock { subscribers in
            continuation.yield(subscribers.current)
            guard !subscribers.finished else {
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
