import RPCCore

#if canImport(RPCHTTP2Client)
import RPCHTTP2Client
#endif

extension CatalogClient {
    /// Settings of a ``CatalogClient``: the connection (where it makes its own), the options
    /// every call starts from, read retries, reconnection, the token provider and interceptors.
    ///
    /// ```swift
    /// var configuration = CatalogClient.Configuration.defaults
    /// configuration.defaultCallOptions.timeout = .seconds(5)
    /// configuration.connection.keepaliveInterval = .seconds(30)
    /// configuration.connection.tls = ClientTLS(caFile: "ca.pem", serverName: "catalog.example.com")
    /// let catalog = try await CatalogClient.connect(port: 50051, configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
#if canImport(RPCHTTP2Client)
        /// The HTTP/2 connection: connect timeout, keepalive, message and window sizes, and
        /// `tls` (a `ClientTLS`: CA file, server name, client certificate; `insecure` for tests
        /// only). Default `HTTP2ClientConfiguration.defaults` (10 s connect timeout, a
        /// keepalive PING after 60 s of silence, closed when unanswered for 20 s, cleartext),
        /// with the catalog's `errorDetailNames`.
        public var connection: HTTP2ClientConfiguration = .catalogDefaults
        /// How calls are spread over several endpoints: `.pickFirst` (the default), one
        /// connection at a time, or `.roundRobin(healthCheck:)`, a connection to each endpoint
        /// and the calls in turn over those that are ready (and serving). See ``CatalogClient/LoadBalancing``.
        public var loadBalancing: LoadBalancing = .pickFirst
#endif
        /// Options every call starts from; a call's own options are laid over them (see
        /// `CallOptions.merged(over:)`). Their timeout bounds each unary and raw call that does
        /// not set a time limit of its own (`.noTimeout` opts out); it does not bound a watch,
        /// which lives until cancelled unless its own options give it a timeout. Default: no
        /// timeout, no metadata, no token, identity.
        public var defaultCallOptions: CallOptions
        /// Retries of idempotent reads on UNAVAILABLE. Default `RetryPolicy.defaults` (3 attempts).
        public var retry: RetryPolicy
        /// The wait between failed connection attempts after the connection was lost.
        /// Default 100 ms doubling to at most 5 s, ±20 %.
        public var reconnectBackoff: Backoff
        /// Asked for the bearer token before each call, each retry of a read and each resume
        /// of a Watch, so that a rotating token needs no new client; caching is the
        /// provider's. A call whose own options carry a token sends that one. `nil` (the
        /// default) sends `defaultCallOptions`' token. A provider that throws fails the call
        /// with UNAUTHENTICATED, its error in the message.
        ///
        /// ```swift
        /// var configuration = CatalogClient.Configuration.defaults
        /// configuration.tokenProvider = { try await session.freshToken() }
        /// ```
        public var tokenProvider: TokenProvider? = nil
        /// What runs around each call, the first outermost: each attempt of a read, each
        /// Watch resume and each raw call goes through them, with the token the call is sent
        /// with already set. See `ClientInterceptor`. Default: none.
        ///
        /// ```swift
        /// var configuration = CatalogClient.Configuration.defaults
        /// configuration.interceptors = [LoggingInterceptor(logger: logger), MetricsInterceptor()]
        /// ```
        public var interceptors: [any ClientInterceptor] = []

#if canImport(RPCHTTP2Client)
        /// How messages travel: `.json` (the default, `application/grpc`) or `.cbor`
        /// (`application/grpc+cbor`, smaller). What the calls return is the same. It is
        /// `connection.contentType`.
        public var codec: Codec {
            get { connection.contentType == ContentType.grpcCBOR.headerValue ? .cbor : .json }
            set { connection.contentType = (newValue == .cbor ? ContentType.grpcCBOR : ContentType.grpc).headerValue }
        }
#endif

        /// The defaults documented on each property.
        public static var defaults: Configuration {
            Configuration(
                defaultCallOptions: .defaults,
                retry: .defaults,
                reconnectBackoff: Backoff(initial: .milliseconds(100), maximum: .seconds(5))
            )
        }
    }
}

extension CatalogClient {
    /// Gives the bearer token of a call (see `Configuration.tokenProvider`); `nil` sends none.
    public typealias TokenProvider = @Sendable () async throws -> String?

    /// How a client's messages are encoded on the wire.
    public enum Codec: String, Sendable, CaseIterable {
        /// JSON (`application/grpc`), which every gRPC server of the contract reads.
        case json
        /// CBOR (`application/grpc+cbor`).
        case cbor
    }
}

#if canImport(RPCHTTP2Client)
extension HTTP2ClientConfiguration {
    /// The defaults, reading the catalog's error details.
    fileprivate static var catalogDefaults: HTTP2ClientConfiguration {
        var configuration = HTTP2ClientConfiguration.defaults
        configuration.errorDetailNames = .catalog
        return configuration
    }
}
#endif
