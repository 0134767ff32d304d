/// The machine-readable part of an error, carried in the trailer that ``ErrorDetailNames``
/// names.
///
/// On the wire it is the base64 of `{"reason": "...", "field": "...", "details": {...}}`,
/// with `field` and `details` absent when they do not apply.
public struct ErrorDetail: Codable, Sendable, Hashable {
    /// A camelCase reason such as `duplicateName` or `revisionMismatch`.
    public var reason: String
    /// The request field at fault, when there is one.
    public var field: String?
    /// Extra facts, such as the `id` of a missing entity.
    public var details: [String: JSONValue]?

    /// A detail with a machine-readable `reason`, the request `field` at fault and further `details`.
    public init(reason: String, field: String? = nil, details: [String: JSONValue]? = nil) {
        self.reason = reason
        self.field = field
        self.details = details
    }

    /// The reason a client gives the error of a stream that was reset without a status (by the
    /// server, or by a proxy that lost the server): INTERNAL, as gRPC maps such resets, with
    /// `details.http2ErrorCode`. Nothing was answered, so a call that may be repeated safely
    /// (such as a Watch resumed from its last revision) may try again.
    public static let streamResetReason = "streamReset"
}
