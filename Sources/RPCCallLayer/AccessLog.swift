import Logging
import RPCCore

/// Writes one entry per call (`HTTP2ServerConfiguration.accessLogLevel`): message `call`,
/// metadata `method` (the path), `status` (the gRPC code's name), `duration_ms`, `caller`
/// (the authorizer's name for the caller, when there is one), `trace_id` (of a well-formed W3C
/// `traceparent` request header, when there is one), `request_messages`,
/// `request_bytes`, `response_messages` and `response_bytes` (gRPC-framed message bytes
/// as sent), plus the connection logger's `peer`. No other request metadata, so no credential
/// reaches the log. Used on the connection's loop.
package final class AccessLog {
    private let logger: Logger
    private let level: Logger.Level

    /// `nil` when access logging is off or `logger` drops `level`, so that streams gather nothing.
    init?(logger: Logger, level: Logger.Level?) {
        guard let level, logger.logLevel <= level else { return nil }
        self.logger = logger
        self.level = level
    }

    /// Writes the entry of a call that ended with `code` after `duration`.
    func write(_ entry: AccessLogEntry, code: StatusCode, duration: Duration) {
        guard let path = entry.path else { return }
        var metadata: Logger.Metadata = [
            "method": .string(path),
            "status": .string(code.name),
            "duration_ms": .string(Self.milliseconds(duration)),
            "request_messages": .stringConvertible(entry.requestMessages),
            "request_bytes": .stringConvertible(entry.requestBytes),
            "response_messages": .stringConvertible(entry.responseMessages),
            "response_bytes": .stringConvertible(entry.responseBytes),
        ]
        if let caller = entry.caller { metadata["caller"] = .string(caller) }
        if let traceID = entry.traceID { metadata["trace_id"] = .string(traceID) }
        logger.log(level: level, "call", metadata: metadata)
    }

    /// `duration` in milliseconds with three decimals, e.g. `0.412`.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        let fraction = String(microseconds % 1000)
        return "\(microseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}

/// What the access log says about one call, gathered while the call runs.
package struct AccessLogEntry {
    /// The `:path`, once the headers are complete.
    var path: String?
    var caller: String?
    /// The trace id of the request's `traceparent`, when it has a well-formed one.
    var traceID: String?
    var requestMessages = 0
    var requestBytes = 0
    var responseMessages = 0
    var responseBytes = 0
}
