import RPCCore
import Tracing

/// The OpenTelemetry RPC conventions a span of a call follows.
enum RPCSpan {
    /// `package.Service/Method`, the span's name.
    static func name(_ method: MethodDescriptor) -> String {
        "\(method.service)/\(method.method)"
    }

    /// `rpc.system`, `rpc.service` and `rpc.method`.
    static func describe(_ method: MethodDescriptor, on span: any Span) {
        span.attributes["rpc.system"] = "grpc"
        span.attributes["rpc.service"] = method.service
        span.attributes["rpc.method"] = method.method
    }

    /// Ends `span` with the call's status: `rpc.grpc.status_code`, and an error status and
    /// the recorded error when it failed.
    static func end(_ span: any Span, with error: RPCError?) {
        span.attributes["rpc.grpc.status_code"] = Int64(error?.code.rawValue ?? 0)
        if let error {
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error, message: "\(error.code.name): \(error.message)"))
        }
        span.end()
    }
}
