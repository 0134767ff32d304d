import Synchronization

/// Something that happens once, awaited with a deadline: `fire()` from any thread, `wait(until:)`
/// from one task, in either order.
package final class Signal: Sendable {
    private struct State {
        var outcome: Bool?
        var continuation: CheckedContinuation<Bool, Never>?
    }

    private let state = Mutex(State())

    package init() {}

    /// Whether it has fired.
    package var hasFired: Bool { state.withLock { $0.outcome == true } }

    /// Marks it fired and wakes its waiter; later calls do nothing.
    package func fire() {
        finish(true)
    }

    /// Waits until it fires (`true`) or `deadline` passes first (`false`); returns at once if
    /// it already fired.
    package func wait(until deadline: ContinuousClock.Instant) async -> Bool {
        let timer = Task.detached { [self] in
            guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
            finish(false)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let known = state.withLock { state -> Bool? in
                if let outcome = state.outcome { return outcome }
                state.continuation = continuation
                return nil
            }
            if let known { continuation.resume(returning: known) }
        }
    }

    private func finish(_ outcome: Bool) {
        let continuation = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: outcome)
    }
}
