import RPCCore
import Testing

@testable import RPCHTTP2
@testable import RPCHTTP2Core
import TestSupport
@testable import RPCFraming

@Suite("MessageDeframer")
struct MessageDeframerTests {
    /// Messages of awkward sizes: empty, shorter than a prefix, exactly a prefix, larger.
    static let mixedMessages: [[UInt8]] = [
        [], [0x42], [1, 2, 3, 4], [5, 6, 7, 8, 9], [], Array(0..<200), Array(repeating: 0xFF, count: 1_000), [],
    ]

    @Test("reassembles messages fed one byte at a time")
    func byteByByte() throws {
        let wire = ReferenceFraming.stream(Self.mixedMessages)
        var deframer = MessageDeframer(maxMessageSize: 4_096)
        let received = try deframer.feed(wire.map { [$0] })
        #expect(received == Self.mixedMessages)
        #expect(deframer.bufferedByteCount == 0)
        try deframer.checkEndOfStream()
    }

    @Test("reassembles messages cut at random places", arguments: 0..<64 as Range<UInt64>)
    func randomSplits(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let messages = (0..<rng.int(in: 0...24)).map { _ -> [UInt8] in
            // One message in four is empty; the rest vary from a byte to a few kilobytes.
            rng.int(in: 0...3) == 0 ? [] : rng.bytes(rng.int(in: 1...3_000))
        }
        let wire = ReferenceFraming.stream(messages)
        let chunks = ReferenceFraming.randomSplits(wire, maxChunk: rng.int(in: 1...700), using: &rng)
        #expect(chunks.joined().elementsEqual(wire), "the splitter itself must not lose bytes")

        var deframer = MessageDeframer(maxMessageSize: 3_000)
        let received = try deframer.feed(chunks)
        #expect(received == messages)
        #expect(deframer.bufferedByteCount == 0)
        try deframer.checkEndOfStream()
    }

    @Test("returns every message of a chunk that holds many")
    func manyMessagesInOneChunk() throws {
        let messages = (0..<100).map { index in [UInt8](repeating: UInt8(index), count: index) }
        var deframer = MessageDeframer(maxMessageSize: 1_024)
        try deframer.append(ReferenceFraming.stream(messages))
        var received: [[UInt8]] = []
        while let message = try deframer.next() {
            received.append(message)
        }
        #expect(received == messages)
        #expect(try deframer.next() == nil)
        try deframer.checkEndOfStream()
    }

    @Test("waits for every chunk of a message that spans many")
    func messageSpanningManyChunks() throws {
        var rng = SplitMix64(seed: 7)
        let message = rng.bytes(150_000)
        let wire = ReferenceFraming.frame(message)
        var deframer = MessageDeframer(maxMessageSize: 150_000)
        var chunkStart = 0
        while chunkStart + 1_000 < wire.count {
            try deframer.append(Array(wire[chunkStart..<chunkStart + 1_000]))
            chunkStart += 1_000
            #expect(try deframer.next() == nil)
            #expect(deframer.bufferedByteCount == chunkStart)
        }
        try deframer.append(Array(wire[chunkStart...]))
        #expect(try deframer.next() == message)
        #expect(try deframer.next() == nil)
        #expect(deframer.bufferedByteCount == 0)
    }

    @Test("returns zero-length messages as empty arrays, not as nil")
    func zeroLengthMessages() throws {
        var deframer = MessageDeframer(maxMessageSize: 0)
        try deframer.append(ReferenceFraming.stream([[], [], []]))
        #expect(try deframer.next() == [])
        #expect(try deframer.next() == [])
        #expect(try deframer.next() == [])
        #expect(try deframer.next() == nil)
        try deframer.checkEndOfStream()
    }

    @Test("returns nothing while the prefix is incomplete")
    func incompletePrefix() throws {
        var deframer = MessageDeframer(maxMessageSize: 16)
        let wire = ReferenceFraming.frame([9, 8, 7])
        for byte in wire.dropLast() {
            try deframer.append([byte])
            #expect(try deframer.next() == nil)
        }
        try deframer.append([wire.last!])
        #expect(try deframer.next() == [9, 8, 7])
    }

    @Test("accepts a message of exactly maxMessageSize bytes", arguments: [0, 1, 5, 1_024, 65_536])
    func messageAtLimit(limit: Int) throws {
        var rng = SplitMix64(seed: UInt64(limit))
        let message = rng.bytes(limit)
        var deframer = MessageDeframer(maxMessageSize: limit)
        #expect(try deframer.feed([ReferenceFraming.frame(message)]) == [message])
    }

    @Test(
        "rejects a message one byte over maxMessageSize as soon as its prefix arrives",
        arguments: [0, 1, 5, 1_024, 65_536]
    )
    func messageOverLimit(limit: Int) throws {
        var deframer = MessageDeframer(maxMessageSize: limit)
        let prefix = ReferenceFraming.prefix(flag: 0, length: limit + 1)
        for byte in prefix.dropLast() {
            try deframer.append([byte])
        }
        let error = try #require(throws: RPCError.self) { try deframer.append([prefix.last!]) }
        #expect(error.code == .resourceExhausted)
        // The body never arrived: the prefix alone was enough.
        #expect(deframer.bufferedByteCount == FramedMessage.prefixLength)
        #expect(throws: RPCError.self) { try deframer.next() }
    }

    @Test("rejects an oversize message that follows a valid one in the same chunk")
    func oversizeAfterValidMessage() throws {
        var deframer = MessageDeframer(maxMessageSize: 8)
        try deframer.append(ReferenceFraming.frame([1, 2, 3]) + ReferenceFraming.prefix(flag: 0, length: 9))
        #expect(try deframer.next() == [1, 2, 3])
        let error = try #require(throws: RPCError.self) { try deframer.next() }
        #expect(error.code == .resourceExhausted)
    }

    @Test("rejects the compressed flag on a stream without grpc-encoding")
    func compressedFlagWithIdentity() throws {
        var deframer = MessageDeframer(maxMessageSize: 1_024, compression: .identity)
        let error = try #require(throws: RPCError.self) {
            try deframer.append(ReferenceFraming.frame(helloGzip, flag: 1))
        }
        #expect(error.code == .internalError)
    }

    @Test(
        "rejects flag bytes other than 0 and 1",
        arguments: [(UInt8(2), CompressionAlgorithm.identity), (2, .gzip), (3, .gzip), (0x80, .identity), (0xFF, .gzip)]
    )
    func invalidFlagByte(flag: UInt8, compression: CompressionAlgorithm) throws {
        var deframer = MessageDeframer(maxMessageSize: 1_024, compression: compression)
        let error = try #require(throws: RPCError.self) {
            try deframer.append(ReferenceFraming.frame([1, 2, 3], flag: flag))
        }
        #expect(error.code == .internalError)
    }

    @Test("decompresses a gzip message made by the gzip command, fed byte by byte")
    func gzipFromCommandLine() throws {
        let wire = ReferenceFraming.frame(helloGzip, flag: 1)
        var deframer = MessageDeframer(maxMessageSize: 1_024, compression: .gzip)
        let received = try deframer.feed(wire.map { [$0] })
        #expect(received == [Array("hello, gzip".utf8)])
        try deframer.checkEndOfStream()
    }

    @Test("decompresses gzip messages mixed with plain ones on a gzip stream", arguments: 0..<16 as Range<UInt64>)
    func gzipMessages(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let messages = (0..<rng.int(in: 1...10)).map { _ -> [UInt8] in
            // Half repetitive (compresses well), half random (does not).
            rng.int(in: 0...1) == 0
                ? [UInt8](repeating: UInt8(rng.int(in: 0...255)), count: rng.int(in: 0...5_000))
                : rng.bytes(rng.int(in: 0...2_000))
        }
        var wire: [UInt8] = []
        for message in messages {
            // A gzip stream may still send some messages uncompressed (flag 0).
            wire += rng.int(in: 0...2) == 0 ? ReferenceFraming.frame(message) : ReferenceFraming.frame(Gzip.compress(message), flag: 1)
        }
        var deframer = MessageDeframer(maxMessageSize: 5_000, compression: .gzip)
        let received = try deframer.feed(ReferenceFraming.randomSplits(wire, maxChunk: 300, using: &rng))
        #expect(received == messages)
        try deframer.checkEndOfStream()
    }

    @Test("accepts a gzip message that decompresses to exactly maxMessageSize bytes")
    func gzipAtLimit() throws {
        let message = [UInt8](repeating: 0x61, count: 10_000)
        var deframer = MessageDeframer(maxMessageSize: 10_000, compression: .gzip)
        #expect(try deframer.feed([ReferenceFraming.frame(Gzip.compress(message), flag: 1)]) == [message])
    }

    @Test("rejects a small gzip message that decompresses beyond maxMessageSize")
    func gzipBomb() throws {
        let compressed = Gzip.compress([UInt8](repeating: 0, count: 10_001))
        try #require(compressed.count < 100, "the compressed message itself must fit the limit")
        var deframer = MessageDeframer(maxMessageSize: 10_000, compression: .gzip)
        try deframer.append(ReferenceFraming.frame(compressed, flag: 1))
        let error = try #require(throws: RPCError.self) { try deframer.next() }
        #expect(error.code == .resourceExhausted)
    }

    @Test(
        "rejects a compressed message that is not valid gzip",
        arguments: [
            [1, 2, 3, 4, 5, 6, 7, 8],  // not gzip at all
            [],  // empty
            Array(helloGzip.dropLast(6)),  // truncated
            helloGzip + [0x00],  // trailing garbage after the member
            Array(helloGzip[0..<10]) + [0xFF] + Array(helloGzip[11...]),  // corrupt deflate data
            Array(helloGzip.dropLast(4)) + [0x0C, 0, 0, 0],  // wrong length in the trailer
        ] as [[UInt8]]
    )
    func invalidGzip(body: [UInt8]) throws {
        var deframer = MessageDeframer(maxMessageSize: 1_024, compression: .gzip)
        try deframer.append(ReferenceFraming.frame(body, flag: 1))
        let error = try #require(throws: RPCError.self) { try deframer.next() }
        #expect(error.code == .internalError)
    }

    @Test("reports a stream that ends inside a prefix", arguments: 1...4)
    func endInsidePrefix(pendingBytes: Int) throws {
        var deframer = MessageDeframer(maxMessageSize: 1_024)
        try deframer.append(ReferenceFraming.frame([1, 2]) + Array(ReferenceFraming.prefix(flag: 0, length: 3).prefix(pendingBytes)))
        #expect(try deframer.next() == [1, 2])
        #expect(try deframer.next() == nil)
        let error = try #require(throws: RPCError.self) { try deframer.checkEndOfStream() }
        #expect(error.code == .internalError)
    }

    @Test("reports a stream that ends inside a message body", arguments: [0, 1, 99])
    func endInsideBody(bodyBytes: Int) throws {
        var deframer = MessageDeframer(maxMessageSize: 1_024)
        try deframer.append(Array(ReferenceFraming.frame([UInt8](repeating: 7, count: 100)).prefix(5 + bodyBytes)))
        #expect(try deframer.next() == nil)
        let error = try #require(throws: RPCError.self) { try deframer.checkEndOfStream() }
        #expect(error.code == .internalError)
    }

    @Test("accepts the end of a stream with nothing pending")
    func endWithNothingPending() throws {
        let fresh = MessageDeframer(maxMessageSize: 1_024)
        #expect(throws: Never.self) { try fresh.checkEndOfStream() }

        var drained = MessageDeframer(maxMessageSize: 1_024)
        #expect(try drained.feed([ReferenceFraming.stream([[1], [], [2, 3]])]) == [[1], [], [2, 3]])
        #expect(throws: Never.self) { try drained.checkEndOfStream() }
    }

    @Test("keeps working after its buffer is compacted many times", arguments: 0..<4 as Range<UInt64>)
    func longStream(seed: UInt64) throws {
        var rng = SplitMix64(seed: 1_000 + seed)
        var deframer = MessageDeframer(maxMessageSize: 100)
        for round in 0..<500 {
            let messages = (0..<rng.int(in: 0...5)).map { _ in rng.bytes(rng.int(in: 0...100)) }
            let chunks = ReferenceFraming.randomSplits(ReferenceFraming.stream(messages), maxChunk: 64, using: &rng)
            let received = try deframer.feed(chunks)
            #expect(received == messages, "round \(round)")
            #expect(deframer.bufferedByteCount == 0)
        }
    }
}
