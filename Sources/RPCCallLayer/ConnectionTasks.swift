import RPCFraming
import Synchronization

/// Runs the server's connections that have calls to run, and counts the calls a shutdown cut.
///
/// A connection joins when its first call that does not run inline starts, so a connection
/// that never has one (a peer that connects and leaves, a client making only inline calls)
/// costs no Swift task and no hop off its loop.
///
/// Each connection's calls run in a task of its own, not a child of the server's: when a
/// shutdown's grace period ends, the calls still running are answered and their handlers
/// cancelled, and the server stops without waiting for a handler that ignores cancellation.
/// Otherwise it waits for every connection's task to end.
package final class ConnectionTasks: Sendable {
    /// The connections to run, each as a task on its loop; ends with `finish()`.
    package let connections: AsyncStream<ServerConnection>
    private let continuation: AsyncStream<ServerConnection>.Continuation
    private let state = Mutex(State())

    private struct State {
        /// Connection tasks that have not ended.
        var running = 0
        /// Calls a shutdown ended before their handlers did.
        var callsCut = 0
        /// Set once calls were cut or connections closed by force: nothing waits for tasks then.
        var forced = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    package init() {
        (connections, continuation) = AsyncStream<ServerConnection>.makeStream()
    }

    /// Starts a task that runs the calls yielded to the returned continuation, on `executor`
    /// (the connection's loop); nil once the server stopped running connections.
    func start(executor: any TaskExecutor) -> AsyncStream<ServerCall>.Continuation? {
        let (calls, callsContinuation) = AsyncStream<ServerCall>.makeStream()
        let connection = ServerConnection(calls: calls, executor: executor)
        guard case .enqueued = continuation.yield(connection) else { return nil }
        return callsContinuation
    }

    /// No connection joins from now on.
    package func finish() {
        continuation.finish()
    }

    /// Runs `connection`'s calls in a task of its own, counted until it ends.
    package func run(_ connection: ServerConnection) {
        state.withLock { $0.running += 1 }
        Task(executorPreference: connection.executor) {
            await connection.run()
            self.ended()
        }
    }

    private func ended() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.running -= 1
            guard state.running == 0 else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// `count` calls were answered at the end of a shutdown's grace period, their handlers
    /// cancelled but perhaps still running.
    func cut(_ count: Int) {
        stopWaiting(addingCut: count)
    }

    /// Every connection was closed at once (the server's task was cancelled).
    package func closedByForce() {
        stopWaiting(addingCut: 0)
    }

    private func stopWaiting(addingCut count: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.callsCut += count
            state.forced = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// How many calls shutdowns cut so far.
    package var callsCut: Int { state.withLock { $0.callsCut } }

    /// Returns once every connection task ended, or at once when calls were cut or connections
    /// closed by force: their handlers were cancelled, and one that ignores it must not keep
    /// the server from stopping.
    package func waitForRunningConnections() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let waiting = state.withLock { state -> Bool in
                guard state.running > 0, !state.forced else { return false }
                state.waiter = waiter
                return true
            }
            if !waiting { waiter.resume() }
        }
    }
}

/// The calls of one connection, run as child tasks on the connection's loop until it closes.
package struct ServerConnection: Sendable {
    let calls: AsyncStream<ServerCall>
    let executor: any TaskExecutor

    func run() async {
        await withDiscardingTaskGroup { group in
            // A call reset, timed out or cut off before its turn is already answered or gone:
            // it gets no task, so a rapid-reset flood costs no handler.
            for await call in calls where !call.abort.hasFired {
                group.addTask { await call.route.run(call) }
            }
        }
    }
}
