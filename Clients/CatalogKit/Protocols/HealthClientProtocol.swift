import CatalogAPI
import RPCCore

/// The calls of `grpc.health.v1.Health` as ``HealthClient`` makes them, for fakes in tests.
public protocol HealthClientProtocol: Sendable {
    /// See ``HealthClient/check(service:options:)``.
    func check(service: String?, options: CallOptions) async throws -> ServingStatus
}

extension HealthClientProtocol {
    /// The requirement with ``HealthClient``'s defaults.
    public func check(service: String? = nil, options: CallOptions = .defaults) async throws -> ServingStatus {
        try await check(service: service, options: options)
    }
}
