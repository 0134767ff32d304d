import Observation
import Synchronization

/// The next change of what an observation read, awaited by one task, which its cancellation
/// ends too.
final class SelectionChange: Sendable {
    private struct State {
        var happened = false
        var continuation: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// Marks the change and wakes the waiter; later calls do nothing.
    func fire() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.happened = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }

    /// Returns once ``fire()`` was called, or when the task is cancelled.
    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let happened = state.withLock { state in
                    if !state.happened { state.continuation = continuation }
                    return state.happened
                }
                if happened { continuation.resume() }
            }
        } onCancel: {
            fire()
        }
    }
}
