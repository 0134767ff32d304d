import Logging
import RPCCore

/// What the call layer applies to every call, whatever its front end: the limits, timeouts
/// and policies of a server's configuration that are not the HTTP version's.
package struct CallLayerConfiguration: Sendable, Hashable {
    /// The largest request message accepted, in bytes.
    package var maxReceiveMessageSize: Int
    /// The largest request header list accepted, in bytes.
    package var maxHeaderListSize: Int
    /// Buffered response bytes per call above which a handler's writes wait.
    package var streamWriteBufferSize: Int
    /// Bytes one connection may hold for its unfinished calls.
    package var maxBufferedBytesPerConnection: Int
    /// Bytes all connections together may hold for their unfinished calls.
    package var maxBufferedBytes: Int
    /// How long a request may take to arrive in full; `nil`: as long as it takes.
    package var requestBodyTimeout: Duration?
    /// How long a response may wait for its client to take a byte; `nil`: as long as it takes.
    package var sendStallTimeout: Duration?
    /// How long calls may go on once the server began to shut down.
    package var shutdownGracePeriod: Duration
    /// Calls a connection may start, as a token bucket; `nil`: no limit.
    package var maxCallRate: RateLimit?
    /// The clock of `maxCallRate` (a test's own, to step through time).
    package var callRateClock: RateLimitClock
    /// The browser origins that may call.
    package var corsOrigins: Set<String>
    /// How errors name their reasons and details.
    package var errorDetailNames: ErrorDetailNames
    /// The level of the access log's line per call; `nil`: no access log.
    package var accessLogLevel: Logger.Level?
    /// What a `GET` of a path other than a method's answers.
    package var resourceTable: ResourceTable

    package init(
        maxReceiveMessageSize: Int, maxHeaderListSize: Int, streamWriteBufferSize: Int, maxBufferedBytesPerConnection: Int,
        maxBufferedBytes: Int, requestBodyTimeout: Duration?, sendStallTimeout: Duration?, shutdownGracePeriod: Duration,
        maxCallRate: RateLimit?, callRateClock: RateLimitClock, corsOrigins: Set<String>, errorDetailNames: ErrorDetailNames,
        accessLogLevel: Logger.Level?, resourceTable: ResourceTable
    ) {
        self.maxReceiveMessageSize = maxReceiveMessageSize
        self.maxHeaderListSize = maxHeaderListSize
        self.streamWriteBufferSize = streamWriteBufferSize
        self.maxBufferedBytesPerConnection = maxBufferedBytesPerConnection
        self.maxBufferedBytes = maxBufferedBytes
        self.requestBodyTimeout = requestBodyTimeout
        self.sendStallTimeout = sendStallTimeout
        self.shutdownGracePeriod = shutdownGracePeriod
        self.maxCallRate = maxCallRate
        self.callRateClock = callRateClock
        self.corsOrigins = corsOrigins
        self.errorDetailNames = errorDetailNames
        self.accessLogLevel = accessLogLevel
        self.resourceTable = resourceTable
    }

    /// A server's defaults, which `HTTP2ServerConfiguration.defaults` takes.
    package static let defaults = CallLayerConfiguration(
        maxReceiveMessageSize: 4 * 1024 * 1024, maxHeaderListSize: 16 * 1024, streamWriteBufferSize: 64 * 1024,
        maxBufferedBytesPerConnection: 8 * 1024 * 1024, maxBufferedBytes: 1024 * 1024 * 1024, requestBodyTimeout: .seconds(30),
        sendStallTimeout: .seconds(30), shutdownGracePeriod: .seconds(10), maxCallRate: nil, callRateClock: .continuous,
        corsOrigins: [], errorDetailNames: .generic, accessLogLevel: nil, resourceTable: ResourceTable([]))
}
