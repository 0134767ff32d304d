/// HTTP/2 frames and a literal-only HPACK encoder, just enough for the attackers to write
/// what a real client never would (RFC 9113 §4.1, RFC 7541 §6.2.2).
enum Frames {
    static let preface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    static let data: UInt8 = 0x0
    static let headers: UInt8 = 0x1
    static let rstStream: UInt8 = 0x3
    static let settings: UInt8 = 0x4
    static let ping: UInt8 = 0x6
    static let goAway: UInt8 = 0x7
    static let continuation: UInt8 = 0x9

    static let endStream: UInt8 = 0x1
    static let endHeaders: UInt8 = 0x4

    /// HTTP/2's default SETTINGS_MAX_FRAME_SIZE, which the server keeps.
    static let maxPayload = 16_384

    /// One frame: the 9-byte header, then `payload`.
    static func frame(_ type: UInt8, flags: UInt8 = 0, stream: UInt32 = 0, _ payload: [UInt8] = []) -> [UInt8] {
        let length = UInt32(payload.count)
        var bytes = [UInt8(truncatingIfNeeded: length >> 16), UInt8(truncatingIfNeeded: length >> 8),
                     UInt8(truncatingIfNeeded: length), type, flags]
        bytes += bigEndian(stream)
        return bytes + payload
    }

    /// The client preface and an empty SETTINGS frame.
    static var connectionStart: [UInt8] { preface + frame(settings) }

    /// The header block of a gRPC call to `path`, plus `extra` fields.
    static func requestBlock(path: String, extra: [(String, String)] = []) -> [UInt8] {
        hpackLiteral([
            (":method", "POST"), (":scheme", "http"), (":path", path), (":authority", "localhost"),
            ("content-type", "application/grpc+json"), ("te", "trailers"),
        ] + extra)
    }

    /// A whole call: the header block in HEADERS and as many CONTINUATION frames as it needs,
    /// then one uncompressed gRPC message holding `json`, ending the stream.
    static func call(stream: UInt32, block: [UInt8], json: String) -> [UInt8] {
        let fragments = stride(from: 0, to: block.count, by: maxPayload).map {
            Array(block[$0..<min($0 + maxPayload, block.count)])
        }
        var bytes: [UInt8] = []
        for (index, fragment) in fragments.enumerated() {
            let flags = index == fragments.count - 1 ? endHeaders : 0
            bytes += frame(index == 0 ? headers : continuation, flags: flags, stream: stream, fragment)
        }
        let body = Array(json.utf8)
        return bytes + frame(data, flags: endStream, stream: stream, [0] + bigEndian(UInt32(body.count)) + body)
    }

    /// RST_STREAM CANCEL.
    static func cancel(stream: UInt32) -> [UInt8] {
        frame(rstStream, stream: stream, bigEndian(0x8))
    }

    /// HPACK "literal header field without indexing, new name", no Huffman coding.
    static func hpackLiteral(_ fields: [(String, String)]) -> [UInt8] {
        fields.flatMap { name, value in [0x00] + hpackString(name) + hpackString(value) }
    }

    /// An HPACK string literal (RFC 7541 §5.2), no Huffman coding.
    static func hpackString(_ string: String) -> [UInt8] {
        let bytes = Array(string.utf8)
        return hpackInteger(bytes.count, prefixBits: 7) + bytes
    }

    private static func hpackInteger(_ value: Int, prefixBits: Int) -> [UInt8] {
        let maxPrefix = (1 << prefixBits) - 1
        if value < maxPrefix { return [UInt8(value)] }
        var bytes = [UInt8(maxPrefix)]
        var rest = value - maxPrefix
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        return bytes + [UInt8(rest)]
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
         UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }
}
