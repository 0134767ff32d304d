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

    public static let ok = StatusCode(0)
    public static let cancelled = StatusCode(1)
    public static let unknown = StatusCode(2)
    public static let invalidArgument = StatusCode(3)
    public static let deadlineExceeded = StatusCode(4)
    public static let notFound = StatusCode(5)
    public static let alreadyExists = StatusCode(6)
    public static let permissionDenied = StatusCode(7)
    public static let resourceExhausted = StatusCode(8)
    public static let failedPrecondition = StatusCode(9)
    public static let aborted = StatusCode(10)
    public static let outOfRange = StatusCode(11)
    public static let unimplemented = StatusCode(12)
    public static let internalError = StatusCode(13)
    public static let unavailable = StatusCode(14)
    public static let dataLoss = StatusCode(15)
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
}
