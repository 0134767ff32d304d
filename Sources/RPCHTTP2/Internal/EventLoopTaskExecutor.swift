import NIOCore

/// Runs Swift tasks on a NIO event loop.
///
/// A connection's calls prefer their connection's event loop, so a handler's output reaches
/// the nghttp2 session without a thread hop. Handlers must therefore not block: slow or
/// blocking work belongs on another executor (GRDB, for instance, uses its own queue).
final class EventLoopTaskExecutor: TaskExecutor {
    private let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { [self] in
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
