/// An error that ends a call with a non-OK status.
///
/// Thrown by server handlers to choose the status a client sees, and thrown by the client
/// when a call ends with a non-OK status.
///
/// Two errors are equal when their code, message, detail and metadata are: the `cause`, which
/// is never sent, takes no part in equality or hashing.
///
/// ```swift
/// throw RPCError(.notFound, "no item 42", detail: ErrorDetail(reason: "notFound", details: ["id": 42]))
/// ```
public struct RPCError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The status code; never `.ok`.
    public var code: StatusCode
    /// A human-readable message, sent as `grpc-message`.
    public var message: String
    /// The machine-readable detail, sent in the trailer its service's ``ErrorDetailNames`` name.
    public var detail: ErrorDetail?
    /// Trailing metadata sent (or received) with the error.
    public var metadata: Metadata
    /// The error that led to this one, for logs and for the code that catches it; never sent,
    /// so an error a client receives has none.
    public var cause: (any Error)?

    public init(
        _ code: StatusCode, _ message: String, detail: ErrorDetail? = nil, metadata: Metadata = [:], cause: (any Error)? = nil
    ) {
        self.code = code == .ok ? .unknown : code
        self.message = message
        self.detail = detail
        self.metadata = metadata
        self.cause = cause
    }

    public var description: String {
        var text = "\(code.name): \(message)"
        if let detail { text += " [\(detail.reason)\(detail.field.map { ", field \($0)" } ?? "")]" }
        if let cause { text += " (cause: \(cause))" }
        return text
    }

    public static func == (lhs: RPCError, rhs: RPCError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.detail == rhs.detail && lhs.metadata == rhs.metadata
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(detail)
        hasher.combine(metadata)
    }
}

/// A domain error that knows which RPC error it stands for.
public protocol RPCErrorConvertible: Error {
    /// The error to send to the client.
    var rpcError: RPCError { get }
}

extension RPCError {
    /// Maps any error thrown by a handler to the error a client sees.
    ///
    /// `RPCError` and `RPCErrorConvertible` keep their status; `CancellationError` becomes
    /// CANCELLED; anything else becomes UNKNOWN, its description kept out of the message (which
    /// is sent) and the error itself kept as the `cause` (which is not).
    public init(mapping error: any Error) {
        switch error {
        case let error as RPCError:
            self = error
        case let error as any RPCErrorConvertible:
            self = error.rpcError
        case is CancellationError:
            self = RPCError(.cancelled, "the call was cancelled")
        default:
            self = RPCError(.unknown, "the handler failed: \(type(of: error))", cause: error)
        }
    }
}
