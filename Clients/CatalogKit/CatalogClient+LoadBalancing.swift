#if canImport(RPCHTTP2Client)
extension CatalogClient {
    /// How a client that makes its own connections spreads its calls over several endpoints
    /// (see `Configuration.loadBalancing`).
    ///
    /// ```swift
    /// var configuration = CatalogClient.Configuration.defaults
    /// configuration.loadBalancing = .roundRobin(healthCheck: true)
    /// let catalog = try await CatalogClient.connect(to: replicas, configuration: configuration)
    /// await catalog.close()
    /// ```
    public enum LoadBalancing: Sendable, Hashable {
        /// One connection, to the first endpoint that answers; when it is lost, the next call
        /// connects again, trying the endpoint after it first. The default.
        case pickFirst
        /// One connection per endpoint, each call sent to the next usable one in turn. An
        /// endpoint whose connection fails or is lost leaves the rotation and is reconnected in
        /// the background with the reconnect backoff. With `healthCheck`, each connection also
        /// watches the server's `grpc.health.v1.Health`, and an endpoint leaves the rotation
        /// while it is not SERVING (a server without the health service counts as serving).
        case roundRobin(healthCheck: Bool)
    }
}
#endif
