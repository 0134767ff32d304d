import Synchronization

/// A one-shot signal that a call must stop: fired by the transport, awaited by the call's
/// watcher task.
package final class AbortSignal: Sendable {
    private enum State {
        case idle
        case waiting(CheckedContinuation<Void, Never>)
        case done
    }

    private let state = Mutex(State.idle)

    /// Fires the signal; later waits return at once.
    func fire() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state = .done }
            if case .waiting(let continuation) = state { return continuation }
            return nil
        }
        waiter?.resume()
    }

    /// Whether the signal has fired.
    var hasFired: Bool {
        state.withLock { state in
            if case .done = state { true } else { false }
        }
    }

    /// Returns when the signal fires or the waiting task is cancelled.
    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    switch state {
                    case .idle:
                        state = .waiting(continuation)
                        return false
                    case .waiting:
                        preconditionFailure("AbortSignal has one waiter")
                    case .done:
                        return true
                    }
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            fire()
        }
    }
}
