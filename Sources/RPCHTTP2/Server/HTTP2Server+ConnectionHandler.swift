import Logging
import NIOCore
import RPCCore

extension HTTP2Server {
    /// The handler that serves one connection of a server for `router`, on its own: add it to
    /// a channel (an `EmbeddedChannel`, for fuzzing the connection in memory) and write the
    /// client's bytes in. Inline calls are answered; calls that would run in a task are refused
    /// (RST_STREAM REFUSED_STREAM), as by a server that stopped running them.
    package static func connectionHandler(
        router: Router, configuration: HTTP2ServerConfiguration, logger: Logger
    ) -> any ChannelHandler {
        let tasks = ConnectionTasks()
        tasks.finish()
        return ServerConnectionHandler(
            configuration: configuration, router: router, tasks: tasks, logger: logger, metrics: ServerMetrics(router: router))
    }
}
