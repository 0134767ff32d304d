import Synchronization

/// Tells whether GRDB's writer is idle, so that a short write can run on its caller's thread
/// (an event loop) instead of waking the writer's thread and waiting for it: two thread hops
/// fewer on the path from a filter write to its subscribers.
///
/// Every job for the writer is counted from before it is queued until it ends. A write runs
/// on its caller only when none is counted, and while it runs, queued writes wait to be
/// submitted, so it never waits behind one (a merge takes most of a second).
final class WriterGate: Sendable {
    private struct State {
        /// Jobs counted: queued, running, or waiting for the caller's write to end.
        var jobs = 0
        var callerWriting = false
        /// Jobs to submit once the caller's write ends, in order.
        var held: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    /// Counts a job, then runs `submit` (which queues it without waiting) now, or once a
    /// write running on its caller ends. `jobEnded()` must follow when the job ends.
    func submit(_ submit: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            state.jobs += 1
            guard state.callerWriting else { return true }
            state.held.append(submit)
            return false
        }
        if now { submit() }
    }

    /// Counts a job that the calling task then queues itself (GRDB's `async` writes), once no
    /// write runs on its caller. `jobEnded()` must follow when the job ends.
    func admit() async {
        // Counted at once in the usual case: a continuation would cost the task a trip
        // through its executor even when resumed straight away.
        let counted = state.withLock { state -> Bool in
            guard !state.callerWriting else { return false }
            state.jobs += 1
            return true
        }
        if counted { return }
        await withCheckedContinuation { admitted in submit { admitted.resume() } }
    }

    func jobEnded() {
        state.withLock { $0.jobs -= 1 }
    }

    /// Runs `write` on this thread when the writer is idle; `nil`, without running it, when not.
    func writeIfIdle<T>(_ write: () throws -> T) rethrows -> T? {
        let idle = state.withLock { state -> Bool in
            guard state.jobs == 0 else { return false }
            state.jobs = 1
            state.callerWriting = true
            return true
        }
        guard idle else { return nil }
        defer {
            let held = state.withLock { state in
                state.jobs -= 1
                state.callerWriting = false
                defer { state.held = [] }
                return state.held
            }
            for submit in held { submit() }
        }
        return try write()
    }
}
