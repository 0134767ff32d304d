import Logging
import NIOCore
import NIOHTTP1
import RPCCallLayer
import RPCCore

/// Puts the front end of a new connection in place once its HTTP version is known: the HTTP/2
/// connection handler, or swift-nio's HTTP/1.1 codec with the HTTP/1.1 handler. Both serve the
/// connection's calls through the same call layer (`ConnectionCalls`).
struct FrontEndStarter {
    let configuration: HTTP2ServerConfiguration
    let router: Router
    let tasks: ConnectionTasks
    let logger: Logger
    let metrics: ServerMetrics
    let refusal: ConnectionRefusal?
    let warnings: WarningThrottle
    let bufferPool: BufferedBytesPool
    /// Times the connection until its first complete request head; `nil`: not timed.
    let headDeadline: RequestHeadDeadline?

    /// Adds the front end for `version` after `context`'s handler.
    func start(_ context: ChannelHandlerContext, _ version: HTTPVersionDetector.Version) throws {
        let pipeline = context.pipeline.syncOperations
        switch version {
        case .http2:
            let handler = ServerConnectionHandler(
                configuration: configuration, router: router, tasks: tasks, logger: logger, metrics: metrics, refusal: refusal,
                warnings: warnings, bufferPool: bufferPool, headDeadline: headDeadline)
            try pipeline.addHandler(handler, position: .after(context.handler))
        case .http1:
            let calls = ConnectionCalls(
                configuration: configuration.callLayer, router: router, tasks: tasks, logger: logger, metrics: metrics, warnings: warnings,
                bufferPool: bufferPool)
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderListSize = 2 * configuration.maxHeaderListSize
            limits.maxHeaderFieldSize = 2 * configuration.maxHeaderListSize
            let handler = HTTP1ConnectionHandler(calls: calls, configuration: configuration, refusal: refusal, headDeadline: headDeadline)
            try pipeline.addHandler(handler, position: .after(context.handler))
            try pipeline.configureHTTPServerPipeline(
                position: .after(context.handler), withPipeliningAssistance: true, withErrorHandling: false,
                withOutboundHeaderValidation: true, withEncoderConfiguration: HTTPResponseEncoder.Configuration(),
                withDecoderLimitConfiguration: limits)
            // A chunk may hold a whole enveloped message, as a content-length body may.
            let observer = HTTP1ReadObserver(handler: handler, maxChunkSize: configuration.maxReceiveMessageSize + 5)
            try pipeline.addHandler(observer, position: .after(context.handler))
        }
    }
}
