/// How a method's calls run: an attribute of its handler (see `MethodHandler`) that the
/// transport's call layer reads. Either way the handler runs on its connection's loop (a
/// network connection's event loop), and an `async` handler is cancelled when its call is
/// aborted (client reset, deadline, lost connection).
public enum ExecutionPolicy: Sendable, Hashable {
    /// Started where the request completes, on the connection's loop, with no task switch and no
    /// thread hop: a handler written without `async` (a lookup in memory, a point read
    /// from an embedded database) answers there with no task at all; an `async` one runs in a
    /// task that runs at once until it first suspends, so one that does not suspend (an idle
    /// writer's short write) answers there too. What it does before it suspends holds the loop,
    /// so it must not block for more than microseconds; once it suspends it goes on like any
    /// task.
    case inline
    /// Scheduled as a task of the connection's, where it may take its time. The default.
    case task
}
