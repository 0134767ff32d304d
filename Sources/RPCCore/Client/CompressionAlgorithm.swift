/// A message compression named in `grpc-encoding`; the transport compresses and decompresses.
public struct CompressionAlgorithm: Hashable, Sendable, CustomStringConvertible {
    /// The header value, e.g. `gzip`.
    public let name: String

    private init(name: String) { self.name = name }

    /// No compression.
    public static let identity = CompressionAlgorithm(name: "identity")
    /// gzip (RFC 1952).
    public static let gzip = CompressionAlgorithm(name: "gzip")

    /// Every algorithm this implementation supports.
    package static let supported: [CompressionAlgorithm] = [.identity, .gzip]

    /// The algorithm named by a `grpc-encoding` value, if supported.
    package init?(headerValue: String) {
        guard let match = Self.supported.first(where: { $0.name == headerValue }) else { return nil }
        self = match
    }

    /// The `grpc-accept-encoding` value this implementation advertises.
    package static let acceptEncodingHeader = supported.map(\.name).joined(separator: ",")

    public var description: String { name }
}
