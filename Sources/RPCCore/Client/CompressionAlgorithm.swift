/// A message compression named in `grpc-encoding`; the transport compresses and decompresses.
///
/// A tag, not a stored name: every call compares and copies its algorithms, and a tag costs no
/// reference count or lazy global to do so.
public struct CompressionAlgorithm: Hashable, Sendable, CustomStringConvertible {
    /// Its raw value is the header value.
    private enum Kind: String, CaseIterable {
        case identity, gzip
    }

    private let kind: Kind

    /// No compression.
    public static var identity: CompressionAlgorithm { CompressionAlgorithm(kind: .identity) }
    /// gzip (RFC 1952).
    public static var gzip: CompressionAlgorithm { CompressionAlgorithm(kind: .gzip) }

    /// Every algorithm this implementation supports.
    package static let supported: [CompressionAlgorithm] = Kind.allCases.map(CompressionAlgorithm.init(kind:))

    /// The header value, e.g. `gzip`.
    public var name: String { kind.rawValue }

    private init(kind: Kind) { self.kind = kind }

    /// The algorithm named by a `grpc-encoding` value, if supported.
    package init?(headerValue: String) {
        guard let kind = Kind(rawValue: headerValue) else { return nil }
        self.init(kind: kind)
    }

    /// The `grpc-accept-encoding` value this implementation advertises.
    package static let acceptEncodingHeader = supported.map(\.name).joined(separator: ",")

    public var description: String { name }
}
