import Logging
import RPCCore

/// Logs each call through swift-log when it ends: the method, the status code and how long it
/// took; a failure also with its message and reason.
///
/// A success is logged at `level` (default `.debug`), a failure at `failureLevel` (default
/// `.info`). A stream (a Watch, a Session) ends when its last message was read, or when it was
/// cancelled (CANCELLED).
public struct LoggingInterceptor: ClientInterceptor {
    /// Where the lines go.
    public var logger: Logger
    /// The level of a call that succeeded.
    public var level: Logger.Level
    /// The level of a call that failed.
    public var failureLevel: Logger.Level

    /// An interceptor that logs to `logger`.
    ///
    /// - Parameters:
    ///   - logger: Where the lines go.
    ///   - level: The level of a call that succeeded.
    ///   - failureLevel: The level of a call that failed.
    public init(logger: Logger, level: Logger.Level = .debug, failureLevel: Logger.Level = .info) {
        self.logger = logger
        self.level = level
        self.failureLevel = failureLevel
    }

    public func intercept<Output: Sendable>(
        _ call: ClientCallContext,
        next: (ClientCallContext) async throws(RPCError) -> Output
    ) async throws(RPCError) -> Output {
        try await observingEnd(call, next: next) { error, elapsed in
            let (seconds, attoseconds) = elapsed.components
            var metadata: Logger.Metadata = [
                "rpc.method": "\(call.method.path)",
                "rpc.code": "\((error?.code ?? .ok).name)",
                "rpc.duration_ms": "\(Double(seconds) * 1000 + Double(attoseconds) / 1e15)",
            ]
            guard let error else { return logger.log(level: level, "rpc call", metadata: metadata) }
            metadata["rpc.message"] = "\(error.message)"
            if let reason = error.detail?.reason { metadata["rpc.reason"] = "\(reason)" }
            logger.log(level: failureLevel, "rpc call failed", metadata: metadata)
        }
    }
}
