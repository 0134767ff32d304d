import Observation
import Synchronization

/// A wait for an observable change that did not come before its deadline.
struct NotInTime: Error, CustomStringConvertible {
    var description: String
}

/// Waits until `condition` holds, checking it now and after each change of an observable
/// property it read (`withObservationTracking`), for at most `timeout`.
@MainActor
func waitUntil(
    _ description: @autoclosure () -> String, within timeout: Duration = .seconds(10), _ condition: @MainActor () -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while true {
        let changed = Changed()
        let holds = withObservationTracking { condition() } onChange: { changed.finish(true) }
        if holds { return }
        let timer = Task.detached {
            guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
            changed.finish(false)
        }
        let inTime = await changed.wait()
        timer.cancel()
        if !inTime { throw NotInTime(description: "not within \(timeout): \(description())") }
    }
}

/// A change (`true`) or the deadline (`false`), whichever comes first, awaited by one task.
private final class Changed: Sendable {
    private let state = Mutex<(outcome: Bool?, waiter: CheckedContinuation<Bool, Never>?)>((nil, nil))

    func finish(_ outcome: Bool) {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: outcome)
    }

    func wait() async -> Bool {
        await withCheckedContinuation { continuation in
            let outcome = state.withLock { state -> Bool? in
                if state.outcome == nil { state.waiter = continuation }
                return state.outcome
            }
            if let outcome { continuation.resume(returning: outcome) }
        }
    }
}
