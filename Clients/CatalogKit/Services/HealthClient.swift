import CatalogAPI
import RPCCore

/// Calls `grpc.health.v1.Health`; get one from ``CatalogClient/health``.
///
/// ```swift
/// let status = try await catalog.health.check(service: "catalog.v1.Categories")
/// ```
public struct HealthClient: Sendable {
    private let runner: CallRunner

    init(runner: CallRunner) { self.runner = runner }

    /// The serving status of `service`, or of the server as a whole when `nil`. Retried on UNAVAILABLE.
    ///
    /// - Parameters:
    ///   - service: A service name such as `catalog.v1.Categories`; `nil` asks about the server.
    ///   - options: Per-call settings such as a timeout or a token.
    /// - Throws: `RPCError` with NOT_FOUND for a service the server does not know.
    public func check(service: String? = nil, options: CallOptions = .defaults) async throws -> ServingStatus {
        try await runner.unary(Health.check, HealthCheckRequest(service: service), options: options, .read).status
    }

    /// The serving status of `service` (the server when `nil`) now, then each change.
    ///
    /// Iterate the result; iteration throws `RPCError` when the call ends with an error,
    /// e.g. when the server goes away. Releasing the sequence or calling `cancel()` ends the call.
    ///
    /// - Parameters:
    ///   - service: A service name such as `grpc.health.v1.Health`; `nil` watches the server.
    ///   - options: Per-call settings such as a timeout; the client's default timeout does
    ///     not bound a watch.
    /// - Throws: `RPCError` when the call cannot be started.
    public func watch(service: String? = nil, options: CallOptions = .defaults) async throws -> HealthWatch {
        HealthWatch(responses: try await runner.serverStreaming(Health.watch, HealthCheckRequest(service: service), options: options))
    }
}
