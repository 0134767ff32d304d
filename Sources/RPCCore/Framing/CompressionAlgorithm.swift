/// A message compression named in `grpc-encoding`.
public struct CompressionAlgorithm: Hashable, Sendable, CustomStringConvertible {
    /// The header value, e.g. `gzip`.
    public let name: String

    private init(name: String) { self.name = name }

    /// No compression.
    public static let identity = CompressionAlgorithm(name: "identity")
    /// gzip (RFC 1952) through zlib.
    public static let gzip = CompressionAlgorithm(name: "gzip")

    /// Every algorithm this implementation supports.
    public static let supported: [CompressionAlgorithm] = [.identity, .gzip]

    /// The algorithm named by a `grpc-encoding` value, if supported.
    public init?(headerValue: String) {
        guard let match = Self.supported.first(where: { $0.name == headerValue }) else { return nil }
        self = match
    }

    /// The `grpc-accept-encoding` value this implementation advertises.
    public static let acceptEncodingHeader = supported.map(\.name).joined(separator: ",")

    public var description: String { name }
}
