import RPCCore
import Testing

@testable import RPCHTTP2
@testable import RPCHTTP2Core
import TestSupport
@testable import RPCFraming

@Suite("Gzip")
struct GzipTests {
    @Test("round-trips random data", arguments: [0, 1, 2, 100, 1_023, 1_024, 65_536, 300_000])
    func randomRoundTrip(length: Int) throws {
        var rng = SplitMix64(seed: UInt64(length) &* 31)
        let data = rng.bytes(length)
        let compressed = Gzip.compress(data)
        #expect(Array(compressed.prefix(2)) == [0x1F, 0x8B])
        #expect(try Gzip.decompress(compressed, limit: length) == data)
    }

    @Test("round-trips repetitive data and makes it much smaller", arguments: [10, 1_000, 100_000, 1_000_000])
    func repetitiveRoundTrip(length: Int) throws {
        let data = (0..<length).map { UInt8(truncatingIfNeeded: $0 % 7) }
        let compressed = Gzip.compress(data)
        if length >= 1_000 {
            #expect(compressed.count * 10 < data.count)
        }
        #expect(try Gzip.decompress(compressed, limit: length) == data)
    }

    @Test("round-trips empty input")
    func emptyRoundTrip() throws {
        let compressed = Gzip.compress([])
        #expect(!compressed.isEmpty, "an empty message still makes a gzip member with header and trailer")
        #expect(try Gzip.decompress(compressed, limit: 0) == [])
    }

    @Test("decompresses the output of the gzip command")
    func decompressesForeignGzip() throws {
        #expect(try Gzip.decompress(helloGzip, limit: 11) == Array("hello, gzip".utf8))
    }

    @Test("fails with RESOURCE_EXHAUSTED one byte past the limit")
    func limit() throws {
        let data = [UInt8](repeating: 1, count: 200_000)
        let compressed = Gzip.compress(data)
        #expect(try Gzip.decompress(compressed, limit: 200_000) == data)
        let error = try #require(throws: RPCError.self) { try Gzip.decompress(compressed, limit: 199_999) }
        #expect(error.code == .resourceExhausted)
        let zeroLimit = try #require(throws: RPCError.self) { try Gzip.decompress(helloGzip, limit: 0) }
        #expect(zeroLimit.code == .resourceExhausted)
    }

    @Test(
        "fails with INTERNAL on data that is not one valid gzip member",
        arguments: [
            [],
            [0x1F],
            Array("hello, gzip".utf8),
            Array(helloGzip.dropLast()),
            helloGzip + [0x00],
        ] as [[UInt8]]
    )
    func invalid(data: [UInt8]) throws {
        let error = try #require(throws: RPCError.self) { try Gzip.decompress(data, limit: 1_000) }
        #expect(error.code == .internalError)
    }
}
