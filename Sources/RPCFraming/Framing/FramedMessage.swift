import RPCCore

/// One message as gRPC frames it on the wire: a flag byte (0 plain, 1 compressed), the
/// payload's length as a 4-byte big-endian integer, then the payload.
///
/// The prefix is kept as an integer beside the payload, so framing copies nothing: the payload
/// goes out from the array it was encoded (or compressed) into. The transport queues framed
/// messages in an `OutboundBody`, which reads them out into DATA frames.
package struct FramedMessage: Sendable {
    /// The length of a message's prefix.
    package static let prefixLength = 5

    /// The prefix's bytes, the first one in the highest of the low `prefixCount` bytes.
    private let prefix: UInt64
    /// How many prefix bytes precede the payload: `prefixLength`, or 0 for bytes framed already.
    package let prefixCount: Int
    /// The bytes after the prefix.
    package let payload: [UInt8]

    /// Frames `message`, compressing it first unless `compression` is identity.
    package init(_ message: [UInt8], compression: CompressionAlgorithm) {
        let compressed = compression == .gzip
        payload = compressed ? Gzip.compress(message) : message
        prefix = UInt64(compressed ? 1 : 0) << 32 | UInt64(UInt32(payload.count))
        prefixCount = Self.prefixLength
    }

    /// Bytes that are framed already (or deliberately malformed), sent as they are.
    package init(framedBytes: [UInt8]) {
        payload = framedBytes
        prefix = 0
        prefixCount = 0
    }

    /// The framed size.
    package var count: Int { prefixCount + payload.count }

    /// The prefix's byte at `index`, which is below `prefixCount`.
    package func prefixByte(_ index: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: prefix >> (8 * (prefixCount - 1 - index)))
    }

    /// The framed bytes in one array (the transport reads them out in pieces instead).
    package var bytes: [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(count)
        for index in 0..<prefixCount { bytes.append(prefixByte(index)) }
        bytes.append(contentsOf: payload)
        return bytes
    }
}
