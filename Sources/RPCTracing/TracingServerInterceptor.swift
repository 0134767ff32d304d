import RPCCore
import ServiceContextModule
import Tracing

/// Traces each call a router serves: a span of kind server named `package.Service/Method`,
/// child of the caller's span when the request metadata carries the tracer's propagation
/// fields (W3C `traceparent` with swift-otel's tracer), with the OpenTelemetry RPC attributes
/// and the handler's status. The handler runs with the span's `ServiceContext` as the task's
/// current one, so that its own spans (a store query) are children of it.
///
/// Put it first among the router's interceptors, so that the span covers the others.
public struct TracingServerInterceptor: ServerInterceptor {
    private let tracer: any Tracer

    /// An interceptor that traces with `tracer`.
    ///
    /// - Parameter tracer: Default: the tracer `InstrumentationSystem` was bootstrapped with.
    public init(tracer: any Tracer = InstrumentationSystem.tracer) {
        self.tracer = tracer
    }

    public func intercept(_ context: ServerContext, next: () async throws -> Void) async throws {
        var parent = ServiceContext.current ?? .topLevel
        tracer.extract(context.requestMetadata, into: &parent, using: MetadataExtractor())
        let span = tracer.startSpan(RPCSpan.name(context.method), context: parent, ofKind: .server)
        RPCSpan.describe(context.method, on: span)
        do {
            try await ServiceContext.withValue(span.context) { try await next() }
            RPCSpan.end(span, with: nil)
        } catch {
            RPCSpan.end(span, with: RPCError(mapping: error))
            throw error
        }
    }
}
