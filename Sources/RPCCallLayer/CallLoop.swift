/// Where a connection's calls run, as the call layer sees it: one serial loop (the
/// connection's loop, for the network front ends), its timers, and the executor that
/// runs the calls' tasks on it. The call layer knows nothing else of the loop.
package protocol CallLoop: Sendable {
    /// Whether the caller runs on the loop now.
    var isCurrent: Bool { get }
    /// Runs `body` on the loop, after what it is running now.
    func execute(_ body: @escaping @Sendable () -> Void)
    /// Runs `body` on the loop after `delay`, unless the timer is cancelled first. Called on the loop.
    func schedule(after delay: Duration, _ body: @escaping () -> Void) -> any CallTimer
    /// Runs tasks on the loop.
    var taskExecutor: any TaskExecutor { get }
}

/// The address of a connection's peer, read when first needed (for logs and the caller's
/// identity).
package protocol PeerAddress: CustomStringConvertible, Sendable {
    /// The IP address as text, when the peer has one.
    var ipAddress: String? { get }
}

/// A timer of a `CallLoop`.
package protocol CallTimer {
    /// The timer will not fire (if it has not already). Called on the loop.
    func cancel()
}

extension CallLoop {
    /// Runs `body` on the loop: at once when already there.
    func run(_ body: @escaping @Sendable () -> Void) {
        if isCurrent {
            body()
        } else {
            execute(body)
        }
    }
}

/// A value that only its loop touches, carried in closures that the loop runs.
package struct LoopBound<Value>: @unchecked Sendable {
    private let loop: any CallLoop
    private let wrapped: Value

    init(_ value: Value, loop: any CallLoop) {
        self.loop = loop
        self.wrapped = value
    }

    /// The value; only on its loop.
    var value: Value {
        assert(loop.isCurrent, "a loop-bound value was touched off its loop")
        return wrapped
    }
}
