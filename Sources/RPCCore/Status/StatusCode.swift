/// A gRPC status code.
///
/// A struct over a private enum so that the set of codes can grow without breaking
/// exhaustive switches in client code.
public struct StatusCode: Hashable, Sendable, CustomStringConvertible {
    /// The numeric value sent in `grpc-status`.
    public let rawValue: Int

    /// Creates a code from its numeric value; values outside 0...16 are `nil`.
    public init?(rawValue: Int) {
        guard (0...16).contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    private init(_ value: Int) { self.rawValue = value }

    /// Success.
    public static let ok = StatusCode(0)
    /// The call was cancelled, typically by the caller.
    public static let cancelled = StatusCode(1)
    /// An error with no better status, or a status from another error space.
    public static let unknown = StatusCode(2)
    /// The request is malformed, whatever the state of the server.
    public static let invalidArgument = StatusCode(3)
    /// The deadline passed before the call completed.
    public static let deadlineExceeded = StatusCode(4)
    /// A requested entity does not exist.
    public static let notFound = StatusCode(5)
    /// The entity a call tried to create already exists.
    public static let alreadyExists = StatusCode(6)
    /// The caller is known but may not run the call.
    public static let permissionDenied = StatusCode(7)
    /// A limit was reached: a quota, a message size, a queue.
    public static let resourceExhausted = StatusCode(8)
    /// The system is not in a state the call needs; retrying as is will not help.
    public static let failedPrecondition = StatusCode(9)
    /// The call was aborted by a conflict, such as a concurrent change.
    public static let aborted = StatusCode(10)
    /// A value is past the valid range (a page past the end, for instance).
    public static let outOfRange = StatusCode(11)
    /// The method is not implemented or not supported.
    public static let unimplemented = StatusCode(12)
    /// An invariant the server relies on is broken.
    public static let internalError = StatusCode(13)
    /// The service cannot answer now; the call may be retried.
    public static let unavailable = StatusCode(14)
    /// Data was lost or corrupted beyond recovery.
    public static let dataLoss = StatusCode(15)
    /// The call has no valid credentials.
    public static let unauthenticated = StatusCode(16)

    private static let names = [
        "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
        "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
        "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
        "UNAUTHENTICATED",
    ]

    /// The canonical upper-case name, e.g. `NOT_FOUND`.
    public var name: String { Self.names[rawValue] }

    public var description: String { name }

    /// Creates a code from its canonical name, e.g. `NOT_FOUND`.
    package init?(name: String) {
        guard let index = Self.names.firstIndex(of: name) else { return nil }
        self.rawValue = index
    }

    /// Connect's name of the code, e.g. `not_found` (and `canceled` for CANCELLED).
    package var connectName: String {
        self == .cancelled ? "canceled" : name.lowercased()
    }

    /// The code of a Connect name, e.g. `not_found`, in any case; `canceled` and gRPC's
    /// `cancelled` both name CANCELLED.
    package init?(connectName: String) {
        let name = connectName.uppercased()
        self.init(name: name == "CANCELED" ? "CANCELLED" : name)
    }
}
