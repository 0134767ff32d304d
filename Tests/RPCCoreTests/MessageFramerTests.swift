import RPCCore
import Testing

@Suite("MessageFramer")
struct MessageFramerTests {
    @Test("frames an uncompressed message exactly like the reference encoding", arguments: [0, 1, 4, 5, 255, 256, 70_000])
    func identityMatchesReference(length: Int) {
        var rng = SplitMix64(seed: UInt64(length))
        let payload = rng.bytes(length)
        #expect(MessageFramer.frame(payload) == ReferenceFraming.frame(payload))
        #expect(MessageFramer.frame(payload, compression: .identity) == ReferenceFraming.frame(payload))
    }

    @Test("writes the flag byte and a big-endian length", arguments: [
        (false, 0, [0, 0, 0, 0, 0]),
        (true, 1, [1, 0, 0, 0, 1]),
        (false, 0x0102_0304, [0, 1, 2, 3, 4]),
        (true, 0xFFFF_FFFF, [1, 0xFF, 0xFF, 0xFF, 0xFF]),
    ] as [(Bool, Int, [UInt8])])
    func appendPrefix(compressed: Bool, length: Int, expected: [UInt8]) {
        var bytes: [UInt8] = [0xAA]
        MessageFramer.appendPrefix(to: &bytes, compressed: compressed, length: length)
        #expect(bytes == [0xAA] + expected)
        #expect(MessageFramer.prefixLength == expected.count)
    }

    @Test("frames a gzip message with flag 1 and the compressed length")
    func gzipFrame() throws {
        let payload = [UInt8](repeating: 0x61, count: 4_000)
        let framed = MessageFramer.frame(payload, compression: .gzip)
        let body = Array(framed.dropFirst(MessageFramer.prefixLength))
        #expect(Array(framed.prefix(MessageFramer.prefixLength)) == ReferenceFraming.prefix(flag: 1, length: body.count))
        #expect(body.count < payload.count)
        #expect(Array(body.prefix(2)) == [0x1F, 0x8B], "a gzip member starts with the gzip magic bytes")
        #expect(try Gzip.decompress(body, limit: payload.count) == payload)
    }

    @Test(
        "round-trips through the deframer",
        arguments: [CompressionAlgorithm.identity, .gzip], 0..<8 as Range<UInt64>
    )
    func roundTrip(compression: CompressionAlgorithm, seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let messages = (0..<rng.int(in: 0...12)).map { _ -> [UInt8] in
            rng.int(in: 0...1) == 0 ? rng.bytes(rng.int(in: 0...4_000)) : Array(repeating: 0x7A, count: rng.int(in: 0...4_000))
        }
        let wire = messages.flatMap { MessageFramer.frame($0, compression: compression) }
        // Room for gzip to make random data slightly larger than it was.
        var deframer = MessageDeframer(maxMessageSize: 4_100, compression: compression)
        let received = try deframer.feed(ReferenceFraming.randomSplits(wire, maxChunk: 500, using: &rng))
        #expect(received == messages)
        try deframer.checkEndOfStream()
    }
}
