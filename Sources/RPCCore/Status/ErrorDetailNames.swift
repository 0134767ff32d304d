/// The names an ``ErrorDetail`` travels under: the gRPC trailer that carries it, and its `type`
/// in a Connect error's `details`. A service chooses them once, and its server and clients are
/// configured with the same names.
///
/// ```swift
/// let names = ErrorDetailNames(trailer: "acme-error-bin", connectType: "acme.v1.ErrorInfo")
/// ```
public struct ErrorDetailNames: Sendable, Hashable {
    /// The gRPC and gRPC-Web trailer, lowercase and ending in `-bin` (its value is base64).
    public let trailer: String
    /// The `type` of the detail in a Connect error's `details`.
    public let connectType: String

    /// Names for a service's error details; `trailer` must be a lowercase `-bin` metadata key
    /// outside gRPC's reserved `grpc-` names.
    public init(trailer: String, connectType: String) {
        precondition(
            trailer.hasSuffix("-bin") && !trailer.hasPrefix("grpc-") && trailer == trailer.lowercased(),
            "an error detail trailer is a lowercase -bin key outside grpc-: \(trailer)")
        self.trailer = trailer
        self.connectType = connectType
    }

    /// `error-detail-bin` and `rpc.ErrorDetail`: the names of a service that chose none.
    public static let generic = ErrorDetailNames(trailer: "error-detail-bin", connectType: "rpc.ErrorDetail")
}
