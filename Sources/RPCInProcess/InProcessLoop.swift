import DequeModule
import Foundation
import RPCCallLayer

/// The thread that runs in-process connections' calls, as an event loop runs a network
/// connection's: jobs in the order they came, timers, and the tasks of the calls' handlers
/// (its `TaskExecutor`). The call layer sees it as any other `CallLoop`.
final class InProcessLoop: CallLoop, TaskExecutor, @unchecked Sendable {
    /// The loop of every in-process transport of the process, started when first used.
    static let shared = InProcessLoop()

    private enum Job {
        case closure(@Sendable () -> Void)
        case task(UnownedJob)
    }

    private final class Timer: CallTimer {
        let deadline: ContinuousClock.Instant
        var body: (() -> Void)?

        init(deadline: ContinuousClock.Instant, body: @escaping () -> Void) {
            self.deadline = deadline
            self.body = body
        }

        func cancel() { body = nil }
    }

    /// Jobs from any thread, guarded by `condition`.
    private var jobs = Deque<Job>()
    private let condition = NSCondition()
    /// Timers by deadline; touched only on the loop's thread.
    private var timers: [Timer] = []
    private var thread: Thread?

    private init() {
        let thread = Thread { [unowned self] in run() }
        thread.name = "in-process calls"
        self.thread = thread
        thread.start()
    }

    var isCurrent: Bool { Thread.current === thread }

    var taskExecutor: any TaskExecutor { self }

    func execute(_ body: @escaping @Sendable () -> Void) {
        enqueue(.closure(body))
    }

    func enqueue(_ job: consuming ExecutorJob) {
        enqueue(.task(UnownedJob(job)))
    }

    func schedule(after delay: Duration, _ body: @escaping () -> Void) -> any CallTimer {
        let timer = Timer(deadline: .now + delay, body: body)
        let index = timers.firstIndex { $0.deadline > timer.deadline } ?? timers.endIndex
        timers.insert(timer, at: index)
        return timer
    }

    private func enqueue(_ job: Job) {
        condition.lock()
        jobs.append(job)
        condition.unlock()
        condition.signal()
    }

    /// The loop's thread: runs what came, then the timers that are due, and waits for more.
    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty {
                timers.removeAll { $0.body == nil }
                guard let next = timers.first?.deadline else {
                    condition.wait()
                    continue
                }
                let remaining = ContinuousClock.now.duration(to: next)
                if remaining <= .zero { break }
                let (seconds, attoseconds) = remaining.components
                _ = condition.wait(until: Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) * 1e-18))
            }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            condition.unlock()
            for job in batch {
                switch job {
                case .closure(let body): body()
                case .task(let job): job.runSynchronously(on: asUnownedTaskExecutor())
                }
            }
            runDueTimers()
        }
    }

    private func runDueTimers() {
        let now = ContinuousClock.now
        while let first = timers.first, first.deadline <= now {
            timers.removeFirst()
            if let body = first.body {
                first.body = nil
                body()
            }
        }
    }
}
