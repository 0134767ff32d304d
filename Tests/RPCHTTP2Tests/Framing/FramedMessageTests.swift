import RPCCore
import Testing

@testable import RPCHTTP2
@testable import RPCHTTP2Core
import TestSupport
@testable import RPCFraming

@Suite("FramedMessage")
struct FramedMessageTests {
    @Test("frames an uncompressed message exactly like the reference encoding", arguments: [0, 1, 4, 5, 255, 256, 70_000])
    func identityMatchesReference(length: Int) {
        var rng = SplitMix64(seed: UInt64(length))
        let payload = rng.bytes(length)
        let framed = FramedMessage(payload, compression: .identity)
        #expect(framed.bytes == ReferenceFraming.frame(payload))
        #expect(framed.count == FramedMessage.prefixLength + length)
    }

    @Test("writes every byte of the length big-endian")
    func fourByteLength() {
        let payload = [UInt8](repeating: 0x5A, count: 0x0102_0304)
        let framed = FramedMessage(payload, compression: .identity)
        #expect(Array(framed.bytes.prefix(FramedMessage.prefixLength)) == [0, 1, 2, 3, 4])
        #expect(FramedMessage.prefixLength == 5)
    }

    @Test("frames a gzip message with flag 1 and the compressed length")
    func gzipFrame() throws {
        let payload = [UInt8](repeating: 0x61, count: 4_000)
        let framed = FramedMessage(payload, compression: .gzip).bytes
        let body = Array(framed.dropFirst(FramedMessage.prefixLength))
        #expect(Array(framed.prefix(FramedMessage.prefixLength)) == ReferenceFraming.prefix(flag: 1, length: body.count))
        #expect(body.count < payload.count)
        #expect(Array(body.prefix(2)) == [0x1F, 0x8B], "a gzip member starts with the gzip magic bytes")
        #expect(try Gzip.decompress(body, limit: payload.count) == payload)
    }

    @Test("bytes framed already go out as they are, without a prefix")
    func framedBytes() {
        let framed = FramedMessage(framedBytes: [9, 8, 7])
        #expect(framed.bytes == [9, 8, 7])
        #expect(framed.count == 3)
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
        let wire = messages.flatMap { FramedMessage($0, compression: compression).bytes }
        // Room for gzip to make random data slightly larger than it was.
        var deframer = MessageDeframer(maxMessageSize: 4_100, compression: compression)
        let received = try deframer.feed(ReferenceFraming.randomSplits(wire, maxChunk: 500, using: &rng))
        #expect(received == messages)
        try deframer.checkEndOfStream()
    }
}
