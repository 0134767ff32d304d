/// Bounds what one header block may cost to decode (an HPACK bomb: a large field put in the
/// dynamic table once, then referenced by one-byte indexes thousands of times, decodes to
/// hundreds of megabytes that nghttp2 checks byte by byte before each field reaches us).
///
/// Sizes are RFC 9113's (name + value + 32 a field). A block may decode past the header-list
/// limit, and is then answered RESOURCE_EXHAUSTED; one that decodes far past it, or to far
/// more than was sent, is not decoded further: the connection ends.
package struct HeaderBlockBudget {
    /// The header-list limit the peer was told (SETTINGS_MAX_HEADER_LIST_SIZE).
    package let limit: Int
    /// Bytes of HEADERS and CONTINUATION payload the current block began with so far.
    package private(set) var encoded = 0
    /// Decoded size of the current block so far.
    package private(set) var decoded = 0

    /// Past `farFactor × limit`, a block is not decoded further.
    package static let farFactor = 8
    /// A block over the limit that decodes to more than `maxExpansion` times its encoded
    /// size is not decoded further.
    package static let maxExpansion = 32

    package init(limit: Int) {
        self.limit = limit
    }

    /// Notes a frame header: HEADERS begins a block, CONTINUATION extends it.
    package mutating func frameBegan(type: UInt8, length: Int) {
        switch type {
        case FrameType.headers:
            encoded = length
            decoded = 0
        case FrameType.continuation:
            encoded += length
        default:
            break
        }
    }

    /// Counts one decoded field; returns why decoding must stop, or `nil`.
    package mutating func field(nameCount: Int, valueCount: Int) -> String? {
        decoded += nameCount + valueCount + 32
        guard decoded > limit else { return nil }
        if decoded > Self.farFactor * limit {
            return "header block decoding past \(Self.farFactor)× the header list limit"
        }
        if decoded > Self.maxExpansion * encoded {
            return "header block decoding to over \(Self.maxExpansion)× its size"
        }
        return nil
    }
}
