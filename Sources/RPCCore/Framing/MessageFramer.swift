/// Writes the gRPC length prefix: a flag byte (0 plain, 1 compressed), then the payload
/// length as a 4-byte big-endian integer, then the payload.
public enum MessageFramer {
    /// The length of the prefix.
    public static let prefixLength = 5

    /// Frames one message, compressing it first unless `compression` is identity.
    public static func frame(_ payload: [UInt8], compression: CompressionAlgorithm = .identity) -> [UInt8] {
        let compressed = compression == .gzip
        let body = compressed ? Gzip.compress(payload) : payload
        var framed = [UInt8]()
        framed.reserveCapacity(prefixLength + body.count)
        appendPrefix(to: &framed, compressed: compressed, length: body.count)
        framed.append(contentsOf: body)
        return framed
    }

    /// Appends a prefix for a payload of `length` bytes.
    public static func appendPrefix(to bytes: inout [UInt8], compressed: Bool, length: Int) {
        let length = UInt32(length)
        bytes.append(compressed ? 1 : 0)
        bytes.append(UInt8(truncatingIfNeeded: length >> 24))
        bytes.append(UInt8(truncatingIfNeeded: length >> 16))
        bytes.append(UInt8(truncatingIfNeeded: length >> 8))
        bytes.append(UInt8(truncatingIfNeeded: length))
    }
}
