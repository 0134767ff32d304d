/// How a method's calls run: an attribute of its handler (see `MethodHandler`) that the
/// transport's call layer reads. Either way the handler is a task, cancelled when its call is
/// aborted (client reset, deadline, lost connection), that runs on the connection's event loop.
public enum ExecutionPolicy: Sendable, Hashable {
    /// Started where the request completes, on the connection's event loop, and run at once
    /// until it first suspends: a handler that does not suspend (a point read from an embedded
    /// database, a lookup in memory, an idle writer's short write) answers with no task switch
    /// and no thread hop. What it does before it suspends holds the event loop, so it must not
    /// block for more than microseconds; once it suspends it goes on like any task.
    case inline
    /// Scheduled as a task of the connection's, where it may take its time. The default.
    case task
}
