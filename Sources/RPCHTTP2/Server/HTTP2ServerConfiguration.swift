import Logging
import RPCCallLayer
import RPCCore

/// Settings of an `HTTP2Server`.
public struct HTTP2ServerConfiguration: Sendable, Hashable {
    /// Host to listen on. Default `127.0.0.1`.
    public var host: String
    /// Port to listen on; 0 picks a free one. Default 50051.
    public var port: Int
    /// Largest request message in bytes, before and after decompression. Default 4 MiB.
    public var maxReceiveMessageSize: Int
    /// SETTINGS_MAX_CONCURRENT_STREAMS per connection. Default 1024.
    public var maxConcurrentStreams: Int
    /// Open connections the server serves; a connection past it is refused as described at
    /// `refusedConnectionTimeout`. Default 10 000.
    public var maxConnections: Int
    /// Open connections the server serves from one peer IP address (any port); a connection
    /// past it is refused as described at `refusedConnectionTimeout`. Default 1000.
    public var maxConnectionsPerPeer: Int
    /// How long a connection refused by `maxConnections` or `maxConnectionsPerPeer` stays
    /// open: the streams it opens meanwhile are answered RESOURCE_EXHAUSTED (reason
    /// `tooManyConnections`, the message naming the limit), then GOAWAY ENHANCE_YOUR_CALM with
    /// the same message as debug data closes it, at once after its first answers or when this
    /// time is over. At most 1024 refused connections are answered at once; past that they
    /// are closed without a word. Default 5 s.
    public var refusedConnectionTimeout: Duration
    /// New streams (calls) per second on one connection, with a burst; a stream past it is
    /// answered RESOURCE_EXHAUSTED (reason `callRateExceeded`) and the connection stays open.
    /// `nil`: no limit. Default `nil`.
    public var maxCallRate: RateLimit?
    /// The clock `maxCallRate` reads. Default: the monotonic clock.
    package var callRateClock: RateLimitClock = .continuous
    /// Largest request header list (RFC 9113 size: name + value + 32 per field). Default 16 KiB.
    public var maxHeaderListSize: Int
    /// Receive window of each stream, in bytes. Default 1 MiB.
    public var streamWindowSize: Int
    /// Receive window of each connection, in bytes. Default 16 MiB.
    public var connectionWindowSize: Int
    /// Buffered response bytes per stream above which a handler's writes wait. Default 64 KiB.
    public var streamWriteBufferSize: Int
    /// Bytes one connection may hold for its unfinished calls: request bytes not yet made into
    /// messages, and response bytes its client has not taken yet. Past it, new calls on the
    /// connection are answered RESOURCE_EXHAUSTED (reason `bufferBudgetExceeded`) and its
    /// largest calls are ended (RESOURCE_EXHAUSTED before their response starts, RST_STREAM
    /// ENHANCE_YOUR_CALM after), so that no client pins more than this. Keep it above
    /// `maxReceiveMessageSize`. Default 8 MiB.
    public var maxBufferedBytesPerConnection: Int
    /// Bytes all connections together may hold for unfinished calls, as for
    /// `maxBufferedBytesPerConnection`, beyond the first 64 KiB of each connection (which small
    /// calls never pass). A connection that needs more than the rest of it is treated as over
    /// its own budget. Default 1 GiB.
    public var maxBufferedBytes: Int
    /// How long a request may take to arrive in full (to its END_STREAM), whatever its
    /// `grpc-timeout`; past it the call ends with DEADLINE_EXCEEDED and its bytes are freed.
    /// A method that takes a request stream (client streaming, bidirectional) has none once its
    /// call started: its request ends when the client says so, as a Watch's response does.
    /// `nil`: no limit. Default 30 s.
    public var requestBodyTimeout: Duration?
    /// How long a connection may take, from accept, to send its first complete request head
    /// (a TLS handshake, the HTTP/2 preface and a HEADERS frame, or an HTTP/1.1 request head),
    /// whatever protocol it turns out to speak, and how long each later HTTP/1.1 request head
    /// may take from its first byte. A connection past it is closed (an HTTP/2 one with GOAWAY),
    /// so that one that never speaks frees its connection slot. A shorter `idleTimeout` still
    /// drains an HTTP/2 connection with no stream first. `nil`: no limit. Default 10 s.
    public var requestHeadTimeout: Duration?
    /// How long response bytes may wait with none taken by the client (a flow-control window
    /// it never opens, a connection it does not read); past it the stream is reset (CANCEL)
    /// and its bytes are freed. `nil`: no limit. Default 30 s.
    public var sendStallTimeout: Duration?
    /// Interval between keepalive PINGs on a connection; `nil` disables them. Default 2 min.
    public var keepaliveInterval: Duration?
    /// How long a keepalive PING may stay unanswered before the connection is closed. Default 20 s.
    public var keepaliveTimeout: Duration
    /// A connection with no open stream for this long is closed with GOAWAY; `nil` never. Default 5 min.
    public var idleTimeout: Duration?
    /// How long graceful shutdown waits for in-flight calls before closing. Default 10 s.
    public var shutdownGracePeriod: Duration
    /// Abuse limits that close a connection with GOAWAY ENHANCE_YOUR_CALM.
    public var abuseLimits: AbuseLimits
    /// The level of the access log's one entry per call (method, status, duration, peer,
    /// caller, messages and bytes; never metadata); `nil` writes none. Checked against the
    /// logger's level once per connection, so a dropped level costs nothing per call. Default `nil`.
    public var accessLogLevel: Logger.Level?
    /// The browser origins (e.g. `https://console.example.com`) whose pages may call the
    /// server by Connect or gRPC-Web: CORS preflights and responses echo an origin of this set,
    /// and no other. Default empty: CORS off.
    public var corsOrigins: Set<String> = []
    /// The trailer and Connect detail type that carry an error's ``ErrorDetail``, which the
    /// service's clients read. Default ``ErrorDetailNames/generic``.
    public var errorDetailNames: ErrorDetailNames = .generic
    /// Files answered to `GET` at fixed paths beside the calls, over HTTP/1.1 and HTTP/2 (a web
    /// console); see `HTTPResource`. Default none.
    public var resources: [HTTPResource] {
        get { resourceTable.resources }
        set { resourceTable = ResourceTable(newValue) }
    }
    /// `resources` by path, with their answers made once for every connection.
    var resourceTable = ResourceTable([])
    /// TLS with ALPN `h2` on every connection; `nil` serves cleartext HTTP/2 (h2c with prior
    /// knowledge). Default `nil`.
    public var tls: ServerTLS?
    /// How long a TLS handshake may take; a peer that has not finished it by then is
    /// disconnected, so it holds no connection slot for longer. Default 10 s.
    public var tlsHandshakeTimeout: Duration

    /// The defaults documented on each property.
    public static var defaults: HTTP2ServerConfiguration {
        // What the call layer applies is its own defaults (an in-process transport's too).
        let calls = CallLayerConfiguration.defaults
        return HTTP2ServerConfiguration(
            host: "127.0.0.1",
            port: 50051,
            maxReceiveMessageSize: calls.maxReceiveMessageSize,
            maxConcurrentStreams: 1024,
            maxConnections: 10_000,
            maxConnectionsPerPeer: 1000,
            refusedConnectionTimeout: .seconds(5),
            maxCallRate: calls.maxCallRate,
            maxHeaderListSize: calls.maxHeaderListSize,
            streamWindowSize: 1024 * 1024,
            connectionWindowSize: 16 * 1024 * 1024,
            streamWriteBufferSize: calls.streamWriteBufferSize,
            maxBufferedBytesPerConnection: calls.maxBufferedBytesPerConnection,
            maxBufferedBytes: calls.maxBufferedBytes,
            requestBodyTimeout: calls.requestBodyTimeout,
            requestHeadTimeout: .seconds(10),
            sendStallTimeout: calls.sendStallTimeout,
            keepaliveInterval: .seconds(120),
            keepaliveTimeout: .seconds(20),
            idleTimeout: .seconds(300),
            shutdownGracePeriod: calls.shutdownGracePeriod,
            abuseLimits: .defaults,
            accessLogLevel: calls.accessLogLevel,
            tls: nil,
            tlsHandshakeTimeout: .seconds(10)
        )
    }
}

/// Rates of control frames a peer may send before its connection is closed.
public struct AbuseLimits: Sendable, Hashable {
    /// RST_STREAM frames from the peer that cancel a request in the same read that brought it,
    /// before the server could start it: a rapid-reset flood (CVE-2023-44487). Default 16
    /// burst, 200/s, so a flooding connection is closed after costing little: the read that
    /// trips it is cut short, and a small burst keeps its event loop's other connections from
    /// waiting behind it. A client that cancels calls it sent earlier
    /// (every call it has in flight at once, their deadlines expiring together) never counts.
    public var resets: RateLimit
    /// PING frames (not acknowledgements). Default 50 burst, 10/s.
    public var pings: RateLimit
    /// SETTINGS frames (not acknowledgements). Default 50 burst, 10/s.
    public var settings: RateLimit
    /// CONTINUATION frames after one HEADERS frame. Default 4 (nghttp2 itself allows 8).
    public var maxContinuationFrames: Int
    /// Requests whose header list is over `HTTP2ServerConfiguration.maxHeaderListSize`. Each
    /// is answered RESOURCE_EXHAUSTED; past this rate the connection is closed. Default 2
    /// burst, 1/s: nghttp2 checks every byte of every header value before the server sees
    /// the list, so a peer sending header lists near nghttp2's 64 KiB field limit over and
    /// over costs the server far more than it costs the peer.
    public var oversizedHeaderLists: RateLimit
    /// Frames that carry nothing and ask for nothing: PRIORITY frames (the server does not
    /// prioritize), frames of types the server does not use, and DATA frames without
    /// END_STREAM that are empty or padded and at most 256 bytes long (which may be all
    /// padding) (CVE-2019-9513 and -9518). They cost a peer next to nothing to send, the
    /// server a parse each, and neither nghttp2 nor HTTP/2 flow control ever stops them.
    /// Default 100 burst, 100/s: gRPC clients send none.
    public var emptyFrames: RateLimit
    /// WINDOW_UPDATE frames allowed per DATA frame the server sent, beyond the first 100: a
    /// client needs them only to let the server send more. Default 10 (clients send one or
    /// two per half window they read).
    public var windowUpdatesPerDataFrame: Int

    /// Padded DATA frames up to this long may be all padding, so they count as empty.
    static let maxEmptyPaddedDataFrame = 256
    /// WINDOW_UPDATE frames allowed before the server sent any DATA (clients widen their
    /// connection window at once).
    static let windowUpdateAllowance = 100

    /// The limits the server runs with unless configured otherwise.
    public static var defaults: AbuseLimits {
        AbuseLimits(
            resets: RateLimit(burst: 16, perSecond: 200),
            pings: RateLimit(burst: 50, perSecond: 10),
            settings: RateLimit(burst: 50, perSecond: 10),
            maxContinuationFrames: 4,
            oversizedHeaderLists: RateLimit(burst: 2, perSecond: 1),
            emptyFrames: RateLimit(burst: 100, perSecond: 100),
            windowUpdatesPerDataFrame: 10
        )
    }
}

extension HTTP2ServerConfiguration {
    /// What of this configuration the call layer applies, under every front end.
    package var callLayer: CallLayerConfiguration {
        CallLayerConfiguration(
            maxReceiveMessageSize: maxReceiveMessageSize, maxHeaderListSize: maxHeaderListSize,
            streamWriteBufferSize: streamWriteBufferSize, maxBufferedBytesPerConnection: maxBufferedBytesPerConnection,
            maxBufferedBytes: maxBufferedBytes, requestBodyTimeout: requestBodyTimeout, sendStallTimeout: sendStallTimeout,
            shutdownGracePeriod: shutdownGracePeriod, maxCallRate: maxCallRate, callRateClock: callRateClock,
            corsOrigins: corsOrigins, errorDetailNames: errorDetailNames, accessLogLevel: accessLogLevel,
            resourceTable: resourceTable)
    }
}
