import NIOCore

/// Hands the server's connections that have calls to run to the server's task group.
///
/// A connection joins when its first call that does not run inline starts, so a connection
/// that never has one (a peer that connects and leaves, a client making only inline calls)
/// costs no Swift task and no hop off its event loop.
final class ConnectionTasks: Sendable {
    /// The connections to run, each as a task on its event loop; ends with `finish()`.
    let connections: AsyncStream<ServerConnection>
    private let continuation: AsyncStream<ServerConnection>.Continuation

    init() {
        (connections, continuation) = AsyncStream<ServerConnection>.makeStream()
    }

    /// Starts a task that runs the calls yielded to the returned continuation, on `eventLoop`;
    /// nil once the server stopped running connections.
    func start(on eventLoop: any EventLoop) -> AsyncStream<ServerCall>.Continuation? {
        let (calls, callsContinuation) = AsyncStream<ServerCall>.makeStream()
        let connection = ServerConnection(calls: calls, executor: EventLoopTaskExecutor(eventLoop))
        guard case .enqueued = continuation.yield(connection) else { return nil }
        return callsContinuation
    }

    /// No connection joins from now on.
    func finish() {
        continuation.finish()
    }
}

/// The calls of one connection, run as child tasks on the connection's event loop until it closes.
struct ServerConnection: Sendable {
    let calls: AsyncStream<ServerCall>
    let executor: EventLoopTaskExecutor

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
