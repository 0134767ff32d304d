import CatalogAPI
import RPCCore

/// Calls `catalog.v1.Reflection`; get one from ``CatalogClient/reflection``.
///
/// ```swift
/// let contract = try await catalog.reflection.describe()
/// let paths = contract.services.flatMap(\.methods).map(\.path)
/// ```
public struct ReflectionClient: Sendable {
    private let runner: CallRunner

    init(runner: CallRunner) { self.runner = runner }

    /// The contract document: every service and method, with its least role and the JSON
    /// Schema of its request and response. Retried on UNAVAILABLE; needs no token.
    ///
    /// - Parameter options: Per-call settings such as a timeout.
    public func describe(options: CallOptions = .defaults) async throws -> ContractDocument {
        try await runner.unary(Reflection.describe, Empty(), options: options, .read)
    }
}
