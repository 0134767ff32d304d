import NIOCore

/// A timeout on a condition that begins and ends far more often than it lasts too long (a
/// connection with no request, a request head still arriving). One timer at most is
/// scheduled: scheduling one each time the condition begins and cancelling it each time it
/// ends would cost more than the requests in between. When the timer fires it checks how long
/// the condition has really held, and waits out the rest. Touched only on its event loop,
/// whose clock it reads (an embedded loop's time is its own).
final class LazyTimeout {
    private let timeout: TimeAmount
    private let eventLoop: any EventLoop
    private let expired: () -> Void
    /// Since when the condition holds, while it does.
    private var since: NIODeadline?
    private var timer: Scheduled<Void>?

    /// - Parameter expired: called on the event loop once the condition has held for `timeout`.
    init(_ timeout: Duration, on eventLoop: any EventLoop, expired: @escaping () -> Void) {
        self.timeout = TimeAmount(timeout)
        self.eventLoop = eventLoop
        self.expired = expired
    }

    /// The condition holds from now on: the timeout counts from now.
    func restart() {
        let now = eventLoop.now
        since = now
        if timer == nil { schedule(at: now + timeout) }
    }

    /// The condition holds: the timeout counts from when it began, now unless it already held.
    func start() {
        if since == nil { restart() }
    }

    /// The condition no longer holds.
    func stop() {
        since = nil
    }

    /// No more timeouts: the timer is cancelled.
    func cancel() {
        since = nil
        timer?.cancel()
        timer = nil
    }

    private func schedule(at deadline: NIODeadline) {
        timer = eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            timer = nil
            guard let since else { return }
            let end = since + timeout
            if end > eventLoop.now { return schedule(at: end) }
            expired()
        }
    }
}
