extension CatalogClient {
    /// Where a `catalogd` listens: one of the replicas given to ``CatalogClient/connect(to:bearerToken:tls:configuration:)``.
    public struct Endpoint: Sendable, Hashable, CustomStringConvertible {
        /// The host name or IP address.
        public var host: String
        /// The port; `catalogd` listens on 50051 by default.
        public var port: Int

        /// The endpoint `host:port`.
        public init(host: String, port: Int = 50051) {
            self.host = host
            self.port = port
        }

        /// `host:port`.
        public var description: String { "\(host):\(port)" }
    }
}
