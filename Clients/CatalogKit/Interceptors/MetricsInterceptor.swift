import CoreMetrics
import RPCCore

/// Counts each call through swift-metrics when it ends, and times it:
/// `rpc_client_calls_total` and `rpc_client_duration_seconds`, both with the dimensions
/// `method` (the path) and `code` (`OK`, `NOT_FOUND`…). A stream (a Watch, a Session) is timed
/// from its opening to its end.
public struct MetricsInterceptor: ClientInterceptor {
    private let factory: any MetricsFactory

    /// An interceptor that records with `factory`.
    ///
    /// - Parameter factory: The metrics backend; by default the one `MetricsSystem` was bootstrapped with.
    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        self.factory = factory
    }

    public func intercept<Output: Sendable>(
        _ call: ClientCallContext,
        next: (ClientCallContext) async throws(RPCError) -> Output
    ) async throws(RPCError) -> Output {
        try await observingEnd(call, next: next) { error, elapsed in
            let dimensions = [("method", call.method.path), ("code", (error?.code ?? .ok).name)]
            let (seconds, attoseconds) = elapsed.components
            Counter(label: "rpc_client_calls_total", dimensions: dimensions, factory: factory).increment()
            Timer(label: "rpc_client_duration_seconds", dimensions: dimensions, factory: factory)
                .recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        }
    }
}
