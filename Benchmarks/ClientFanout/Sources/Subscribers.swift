import CatalogKit
import Synchronization

/// A change event as it reached a subscriber.
struct Arrival {
    var revision: Int64
    var instant: ContinuousClock.Instant
}

/// What the subscribers tell the main task while they run: how many have synced, what failed,
/// and the newest revision each one has received.
final class Progress: Sendable {
    private struct State {
        var synced = 0
        var failures: [String] = []
        var interruptions = 0
        var newest: [Int64]
    }

    private let state: Mutex<State>

    init(subscribers: Int) {
        state = Mutex(State(newest: Array(repeating: -1, count: subscribers)))
    }

    func synced() { state.withLock { $0.synced += 1 } }
    func interrupted() { state.withLock { $0.interruptions += 1 } }
    func failed(_ subscriber: Int, _ error: any Error) { state.withLock { $0.failures.append("subscriber \(subscriber): \(error)") } }
    func received(_ revision: Int64, by subscriber: Int) { state.withLock { $0.newest[subscriber] = max($0.newest[subscriber], revision) } }

    /// Subscribers that have synced or failed.
    var settled: Int { state.withLock { $0.synced + $0.failures.count } }
    var failures: [String] { state.withLock { $0.failures } }
    /// Streams lost and resumed by `FilterWatch`.
    var interruptions: Int { state.withLock { $0.interruptions } }

    /// Subscribers that have received `revision` or a later one.
    func reached(_ revision: Int64) -> Int {
        state.withLock { state in state.newest.count { $0 >= revision } }
    }
}

/// Follows `watch` until the task is cancelled or the watch fails; answers the change events
/// received, in revision order.
func follow(_ watch: FilterWatch, subscriber: Int, progress: Progress) async -> [Arrival] {
    var arrivals: [Arrival] = []
    do {
        for try await event in watch {
            let instant = ContinuousClock.now
            switch event.kind {
            case .snapshot:
                progress.received(event.revision, by: subscriber)
            case .synced:
                progress.synced()
            case .change:
                arrivals.append(Arrival(revision: event.revision, instant: instant))
                progress.received(event.revision, by: subscriber)
            default:
                break
            }
        }
    } catch {
        progress.failed(subscriber, error)
    }
    return arrivals
}

/// Waits until `condition` holds, checking every 2 ms; `false` after `timeout`.
func wait(upTo timeout: Duration, until condition: @Sendable () -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try await Task.sleep(for: .milliseconds(2))
    }
    return true
}
