import RPCCore
import ServiceContextModule
import Tracing

/// Traces each call a client makes: a span of kind client named `package.Service/Method`, with
/// the OpenTelemetry RPC attributes and the call's status, child of the task's current
/// `ServiceContext`; its propagation fields go out in the request metadata, as the tracer
/// writes them (W3C `traceparent` with swift-otel's tracer).
///
/// Put it first among the interceptors, so that the span covers the others.
public struct TracingClientInterceptor: ClientInterceptor {
    private let tracer: any Tracer

    /// An interceptor that traces with `tracer`.
    ///
    /// - Parameter tracer: Default: the tracer `InstrumentationSystem` was bootstrapped with.
    public init(tracer: any Tracer = InstrumentationSystem.tracer) {
        self.tracer = tracer
    }

    public func intercept<Output: Sendable>(
        _ call: ClientCallContext,
        next: (ClientCallContext) async throws(RPCError) -> Output
    ) async throws(RPCError) -> Output {
        let span = tracer.startSpan(RPCSpan.name(call.method), context: ServiceContext.current ?? .topLevel, ofKind: .client)
        RPCSpan.describe(call.method, on: span)
        var call = call
        tracer.inject(span.context, into: &call.options.metadata, using: MetadataInjector())
        do {
            let output = try await next(call)
            RPCSpan.end(span, with: nil)
            return output
        } catch {
            RPCSpan.end(span, with: error)
            throw error
        }
    }
}
