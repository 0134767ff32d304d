#if canImport(RPCHTTP2Client)
import RPCCore
import RPCHTTP2Client

// The HTTP/2 connections of a CatalogClient (libnghttp2 over SwiftNIO): where that transport
// builds (Linux, macOS). Elsewhere (iOS) a client is made with `init(transport:)`, e.g. over
// RPCURLSession's URLSessionTransport.
extension CatalogClient {
    /// A client that connects on its first call rather than now, so that boot order does not
    /// matter: an app that starts offline, a service that starts before the catalog. Until a
    /// connection is made its calls fail with UNAVAILABLE (reads after their retries), each
    /// later call trying again once the `reconnectBackoff` allows. After that it behaves as a
    /// client of ``connect(to:bearerToken:tls:configuration:)``. With round-robin
    /// (`Configuration/loadBalancing`), the first call connects to every endpoint and waits,
    /// within its timeout, for one to be ready; after that, endpoints reconnect in the
    /// background, and calls fail with UNAVAILABLE at once while every endpoint has failed.
    ///
    /// ```swift
    /// let catalog = CatalogClient(lazilyConnectingTo: [CatalogClient.Endpoint(host: "catalog.internal", port: 50051)])
    /// ```
    ///
    /// - Parameters:
    ///   - endpoints: Where the replicas listen, tried in this order; at least one.
    ///   - bearerToken: As for ``connect(host:port:bearerToken:tls:configuration:)``.
    ///   - tls: As for ``connect(host:port:bearerToken:tls:configuration:)``.
    ///   - configuration: Connection, default call options, retries and reconnection.
    public convenience init(
        lazilyConnectingTo endpoints: [Endpoint], bearerToken: String? = nil, tls: ClientTLS? = nil, configuration: Configuration = .defaults
    ) {
        var configuration = configuration
        if let bearerToken { configuration.defaultCallOptions.bearerToken = bearerToken }
        if let tls { configuration.connection.tls = tls }
        let connections: any ClientTransport & OwnedConnections = switch configuration.loadBalancing {
        case .pickFirst:
            ConnectionManager(endpoints: endpoints, configuration: configuration.connection, backoff: configuration.reconnectBackoff)
        case .roundRobin(let healthCheck):
            RoundRobinBalancer(
                endpoints: endpoints, configuration: configuration.connection, backoff: configuration.reconnectBackoff,
                healthCheck: healthCheck)
        }
        self.init(transport: connections, connections: connections, configuration: configuration)
    }

    /// Connects to `catalogd` at `host:port`, over cleartext HTTP/2 or, with `tls`, over TLS.
    ///
    /// ```swift
    /// let catalog = try await CatalogClient.connect(
    ///     host: "catalog.example.com", port: 443, bearerToken: token, tls: ClientTLS(caFile: "ca.pem"))
    /// ```
    ///
    /// - Parameters:
    ///   - host: The server's host name or IP address. Default `127.0.0.1`.
    ///   - port: The server's port. Default `50051`, where `catalogd` listens by default.
    ///   - bearerToken: A token sent with every call (`authorization: Bearer <token>`)
    ///     unless a call's options carry another; `nil` sends none.
    ///   - tls: TLS with ALPN `h2`: the CAs that may sign the server's certificate (default:
    ///     the system's), the name it must be valid for (default: `host`), a client
    ///     certificate for mutual TLS; `nil` keeps `configuration.connection.tls` (by default
    ///     none: cleartext).
    ///   - configuration: Connection, default call options, retries and reconnection.
    /// - Throws: `RPCError` with UNAVAILABLE when the server cannot be reached now, or the TLS
    ///   handshake fails (the message says why, e.g. an untrusted certificate).
    public static func connect(
        host: String = "127.0.0.1",
        port: Int = 50051,
        bearerToken: String? = nil,
        tls: ClientTLS? = nil,
        configuration: Configuration = .defaults
    ) async throws -> CatalogClient {
        try await connect(to: [Endpoint(host: host, port: port)], bearerToken: bearerToken, tls: tls, configuration: configuration)
    }

    /// Connects to the first of `endpoints` that answers: replicas of one service, reached
    /// without a load balancer. When the connection is lost, calls move on to the next
    /// endpoint that answers; a read is retried there (`Configuration/retry`), and a
    /// ``FiltersClient/watch(_:sinceRevision:delivery:heartbeatSeconds:options:onInterruption:)``
    /// resumes there after the last revision it delivered.
    ///
    /// With `configuration.loadBalancing` set to ``LoadBalancing/roundRobin(healthCheck:)``, it
    /// connects to every endpoint instead and returns once one is ready (and serving), each
    /// call then going to the next ready endpoint in turn.
    ///
    /// ```swift
    /// let catalog = try await CatalogClient.connect(to: [
    ///     CatalogClient.Endpoint(host: "10.0.0.11", port: 50051),
    ///     CatalogClient.Endpoint(host: "10.0.0.12", port: 50051),
    /// ])
    /// await catalog.close()
    /// ```
    ///
    /// - Parameters:
    ///   - endpoints: Where the replicas listen, tried in this order; at least one.
    ///   - bearerToken: As for ``connect(host:port:bearerToken:tls:configuration:)``.
    ///   - tls: As for ``connect(host:port:bearerToken:tls:configuration:)``; with a server
    ///     name in it, every endpoint's certificate must be valid for that name.
    ///   - configuration: Connection, default call options, retries and reconnection.
    /// - Throws: `RPCError` with UNAVAILABLE when no endpoint can be reached now (or, with a
    ///   health-checked round-robin, none is serving).
    public static func connect(
        to endpoints: [Endpoint],
        bearerToken: String? = nil,
        tls: ClientTLS? = nil,
        configuration: Configuration = .defaults
    ) async throws -> CatalogClient {
        guard !endpoints.isEmpty else { throw RPCError(.invalidArgument, "CatalogClient.connect(to:) needs at least one endpoint") }
        var configuration = configuration
        if let bearerToken { configuration.defaultCallOptions.bearerToken = bearerToken }
        if let tls { configuration.connection.tls = tls }
        switch configuration.loadBalancing {
        case .pickFirst:
            let (connection, endpoint) = try await ConnectionManager.connectToAny(endpoints, configuration: configuration.connection)
            let connections = ConnectionManager(
                endpoints: endpoints, configuration: configuration.connection,
                backoff: configuration.reconnectBackoff, connection: connection, endpoint: endpoint
            )
            return CatalogClient(transport: connections, connections: connections, configuration: configuration)
        case .roundRobin(let healthCheck):
            let connections = RoundRobinBalancer(
                endpoints: endpoints, configuration: configuration.connection, backoff: configuration.reconnectBackoff,
                healthCheck: healthCheck)
            try await connections.connect()
            return CatalogClient(transport: connections, connections: connections, configuration: configuration)
        }
    }
}
#endif
