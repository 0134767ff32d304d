import Logging
import NIOCore
import RPCCore

extension HTTP2Server {
    /// The handler that serves one connection of a server for `router`, on its own: add it to
    /// a channel (an `EmbeddedChannel`, for fuzzing the connection in memory) and write the
    /// client's bytes in. Calls that run in a task are queued and never run; inline calls are
    /// answered.
    package static func connectionHandler(
        router: Router, configuration: HTTP2ServerConfiguration, logger: Logger
    ) -> any ChannelHandler {
        ServerConnectionHandler(
            configuration: configuration, router: router, tasks: ConnectionTasks(), logger: logger,
            metrics: ServerMetrics(router: router))
    }
}
