import Dispatch
import RPCCallLayer

/// Where an in-process connection's calls run, as an event loop runs a network connection's:
/// a serial dispatch queue runs jobs in the order they came, the timers, and the tasks of the
/// calls' handlers (its `TaskExecutor`). The call layer sees it as any other `CallLoop`.
final class InProcessLoop: CallLoop, TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "rpc.in-process")
    private let key = DispatchSpecificKey<Bool>()

    private final class Timer: CallTimer {
        var body: (() -> Void)?

        init(_ body: @escaping () -> Void) { self.body = body }

        func cancel() { body = nil }
    }

    init() {
        queue.setSpecific(key: key, value: true)
    }

    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }

    var taskExecutor: any TaskExecutor { self }

    func execute(_ body: @escaping @Sendable () -> Void) {
        queue.async(execute: body)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }

    func schedule(after delay: Duration, _ body: @escaping () -> Void) -> any CallTimer {
        let timer = Timer(body)
        let unchecked = UncheckedTimer(timer: timer)
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: max(delay.nanoseconds, 0)))) {
            guard let body = unchecked.timer.body else { return }
            unchecked.timer.body = nil
            body()
        }
        return timer
    }

    /// A timer carried to the queue, which alone touches it.
    private struct UncheckedTimer: @unchecked Sendable {
        let timer: Timer
    }
}
