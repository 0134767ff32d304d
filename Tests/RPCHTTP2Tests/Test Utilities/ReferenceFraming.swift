import TestSupport

/// A gRPC length-prefixed encoding written independently of `FramedMessage`, to compare the
/// code under test against.
enum ReferenceFraming {
    /// The five-byte prefix: the flag byte, then the length as a 4-byte big-endian integer.
    static func prefix(flag: UInt8, length: Int) -> [UInt8] {
        let length = UInt32(length)
        return [
            flag,
            UInt8(length >> 24),
            UInt8((length >> 16) & 0xFF),
            UInt8((length >> 8) & 0xFF),
            UInt8(length & 0xFF),
        ]
    }

    /// One framed message: prefix, then the body as it is.
    static func frame(_ body: [UInt8], flag: UInt8 = 0) -> [UInt8] {
        prefix(flag: flag, length: body.count) + body
    }

    /// Every message framed uncompressed, one after the other.
    static func stream(_ messages: [[UInt8]]) -> [UInt8] {
        messages.flatMap { frame($0) }
    }

    /// `bytes` cut into random pieces of 0 to `maxChunk` bytes (empty pieces included).
    static func randomSplits(_ bytes: [UInt8], maxChunk: Int, using rng: inout SplitMix64) -> [[UInt8]] {
        var chunks: [[UInt8]] = []
        var index = 0
        while index < bytes.count {
            let length = min(rng.int(in: 0...maxChunk), bytes.count - index)
            chunks.append(Array(bytes[index..<index + length]))
            index += length
        }
        return chunks
    }
}

/// A gzip member of the text `hello, gzip`, made by `printf 'hello, gzip' | gzip -n`, so that
/// decompression is checked against a compressor other than the one under test.
let helloGzip: [UInt8] = [
    31, 139, 8, 0, 0, 0, 0, 0, 0, 3, 203, 72, 205, 201, 201, 215,
    81, 72, 175, 202, 44, 0, 0, 74, 155, 177, 92, 11, 0, 0, 0,
]
