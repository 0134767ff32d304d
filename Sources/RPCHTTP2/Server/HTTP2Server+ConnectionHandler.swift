import Logging
import NIOCore
import RPCCallLayer
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

extension HTTP2Server {
    /// What a new cleartext connection of a server for `router` starts with, on its own: the
    /// handler that tells HTTP/2 from HTTP/1.1 by the first bytes and puts that version's front
    /// end in place. For fuzzing both front ends in memory; calls that would run in a task are
    /// refused, as for `connectionHandler(router:configuration:logger:)`.
    package static func versionDetectingHandler(
        router: Router, configuration: HTTP2ServerConfiguration, logger: Logger
    ) -> any ChannelHandler {
        let tasks = ConnectionTasks()
        tasks.finish()
        let starter = FrontEndStarter(
            configuration: configuration, router: router, tasks: tasks, logger: logger, metrics: ServerMetrics(router: router),
            refusal: nil, warnings: WarningThrottle(), bufferPool: BufferedBytesPool(limit: configuration.maxBufferedBytes),
            headDeadline: nil)
        return HTTPVersionDetector(start: starter.start)
    }
}
