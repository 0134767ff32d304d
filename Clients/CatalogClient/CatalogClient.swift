import CatalogAPI
import RPCCore
import RPCHTTP2

/// A connection to `catalogd`, with one typed client per service.
///
/// One `CatalogClient` multiplexes every call over a single HTTP/2 connection; share it
/// between tasks and close it when done.
///
/// ```swift
/// let catalog = try await CatalogClient.connect(host: "127.0.0.1", port: 50051)
/// let status = try await catalog.health.check()   // .serving
/// for try await update in try await catalog.health.watch() {
///     print(update.status)
/// }
/// await catalog.close()
/// ```
public final class CatalogClient: Sendable {
    private let connection: HTTP2ClientConnection
    private let rpc: RPCClient

    private init(connection: HTTP2ClientConnection) {
        self.connection = connection
        self.rpc = RPCClient(transport: connection)
    }

    /// Connects to `catalogd` at `host:port` over cleartext HTTP/2.
    ///
    /// - Parameters:
    ///   - host: The server's host name or IP address. Default `127.0.0.1`.
    ///   - port: The server's port. Default `50051`, where `catalogd` listens by default.
    ///   - configuration: Connection settings such as the connect timeout.
    /// - Throws: `RPCError` with UNAVAILABLE when the server cannot be reached.
    public static func connect(
        host: String = "127.0.0.1",
        port: Int = 50051,
        configuration: HTTP2ClientConfiguration = .defaults
    ) async throws(RPCError) -> CatalogClient {
        let connection = try await HTTP2ClientConnection.connect(host: host, port: port, configuration: configuration)
        return CatalogClient(connection: connection)
    }

    /// The `grpc.health.v1.Health` service: whether the server, or one of its services, is serving.
    public var health: HealthClient { HealthClient(rpc: rpc) }

    /// Sends GOAWAY, lets open calls finish, then closes the connection.
    public func close() async {
        await connection.close()
    }
}

/// Calls `grpc.health.v1.Health`; get one from ``CatalogClient/health``.
///
/// ```swift
/// let status = try await catalog.health.check(service: "grpc.health.v1.Health")
/// ```
public struct HealthClient: Sendable {
    private let rpc: RPCClient

    init(rpc: RPCClient) { self.rpc = rpc }

    /// The serving status of `service`, or of the server as a whole when `nil`.
    ///
    /// - Parameters:
    ///   - service: A service name such as `grpc.health.v1.Health`; `nil` asks about the server.
    ///   - options: Per-call settings such as a deadline.
    /// - Throws: `RPCError` with NOT_FOUND for a service the server does not know.
    public func check(service: String? = nil, options: CallOptions = .defaults) async throws(RPCError) -> ServingStatus {
        try await rpc.unary(Health.check, HealthCheckRequest(service: service), options: options).status
    }

    /// The serving status of `service` (the server when `nil`) now, then each change.
    ///
    /// Iterate the result; iteration throws `RPCError` when the call ends with an error,
    /// e.g. when the server goes away. Releasing the stream or calling `cancel()` ends the call.
    ///
    /// - Parameters:
    ///   - service: A service name such as `grpc.health.v1.Health`; `nil` watches the server.
    ///   - options: Per-call settings such as a deadline.
    /// - Throws: `RPCError` when the call cannot be started.
    public func watch(
        service: String? = nil,
        options: CallOptions = .defaults
    ) async throws(RPCError) -> ResponseStream<HealthCheckResponse> {
        try await rpc.serverStreaming(Health.watch, HealthCheckRequest(service: service), options: options)
    }
}
