import Testing

@testable import RPCHTTP2
@testable import RPCHTTP2Core

/// A header block that decodes to far more than the header-list limit (an HPACK bomb) ends
/// its connection before nghttp2 decodes the rest of it.
@Suite("HPACK bombs", .timeLimit(.minutes(1)))
struct HPACKBombTests {
    @Test("a block is decoded up to the limit, then past it while it stays near the limit and its size")
    func budget() {
        var budget = HeaderBlockBudget(limit: 1000)
        budget.frameBegan(type: FrameType.headers.rawValue, length: 400)
        #expect(budget.field(nameCount: 10, valueCount: 958) == nil)  // exactly the limit
        // Over the limit but within 32× the 400 bytes sent and 8× the limit: answered, not cut.
        #expect(budget.field(nameCount: 10, valueCount: 5000) == nil)
        #expect(budget.field(nameCount: 10, valueCount: 1916) == nil)  // 8000 decoded: 8× the limit
        #expect(budget.field(nameCount: 0, valueCount: 0) != nil)  // 8032: past 8× the limit

        var expanding = HeaderBlockBudget(limit: 1000)
        expanding.frameBegan(type: FrameType.headers.rawValue, length: 30)
        #expect(expanding.field(nameCount: 10, valueCount: 900) == nil)  // 942 ≤ limit
        #expect(expanding.field(nameCount: 10, valueCount: 50) != nil)  // 1034 > limit and > 32 × 30

        expanding.frameBegan(type: FrameType.headers.rawValue, length: 30)  // a new block starts afresh
        expanding.frameBegan(type: FrameType.continuation.rawValue, length: 30)
        #expect(expanding.field(nameCount: 10, valueCount: 900) == nil)
        #expect(expanding.field(nameCount: 10, valueCount: 50) == nil)  // 1034 ≤ 32 × 60
    }

    @Test("a request whose header block references one large field thousands of times gets GOAWAY ENHANCE_YOUR_CALM")
    func bombInRequest() async throws {
        try await withTestServer { server in
            let port = server.port
            let goAway = try await runBlocking {
                try closingGoAway(onConnectionTo: port) { raw in
                    try raw.sendRaw(Self.headerFrames(streamID: 1, block: Self.bomb(after: Self.request), endStream: true))
                }
            }
            #expect(goAway?.goAwayErrorCode == HTTP2ErrorCode.enhanceYourCalm, "\(String(describing: goAway))")
            #expect(try await server.servesAnotherConnection())
        }
    }

    @Test("a bomb in a call's trailers gets GOAWAY ENHANCE_YOUR_CALM too")
    func bombInTrailers() async throws {
        try await withTestServer { server in
            let port = server.port
            let goAway = try await runBlocking {
                try closingGoAway(onConnectionTo: port) { raw in
                    try raw.sendHeaders(streamID: 1, headers: RawHTTP2Connection.grpcRequestHeaders(path: Echo.get.descriptor.path), endStream: false)
                    try raw.sendData(streamID: 1, grpcMessage(#"{"text":"trailers follow"}"#), endStream: false)
                    try raw.sendRaw(Self.headerFrames(streamID: 1, block: Self.bomb(after: []), endStream: true))
                }
            }
            #expect(goAway?.goAwayErrorCode == HTTP2ErrorCode.enhanceYourCalm, "\(String(describing: goAway))")
        }
    }

    /// The fields of a gRPC request to Echo/Get, as HPACK literals.
    private static let request = RawHTTP2Connection.hpackLiteral(RawHTTP2Connection.grpcRequestHeaders(path: Echo.get.descriptor.path))

    /// `prefix`, then a 4 000-byte field added to the dynamic table, then one-byte references
    /// to it until the block is 80 KiB: about 78 000 fields, 300 MB decoded.
    private static func bomb(after prefix: [UInt8]) -> [UInt8] {
        // Literal with incremental indexing, new name (RFC 7541 §6.2.1): dynamic index 62.
        let large = [0x40] + RawHTTP2Connection.hpackString("x-bomb") + RawHTTP2Connection.hpackString(String(repeating: "a", count: 4000))
        let size = 5 * 16_384
        // Indexed field (§6.1): 0x80 | 62.
        return prefix + large + [UInt8](repeating: 0x80 | 62, count: size - prefix.count - large.count)
    }

    /// `block` in a HEADERS frame and as many CONTINUATION frames as it needs (16 KiB each).
    private static func headerFrames(streamID: UInt32, block: [UInt8], endStream: Bool) -> [UInt8] {
        let pieces = stride(from: 0, to: block.count, by: 16_384).map { Array(block[$0..<min($0 + 16_384, block.count)]) }
        return pieces.enumerated().flatMap { index, piece in
            var flags: UInt8 = index == pieces.count - 1 ? FrameFlags.endHeaders : 0
            if index == 0 && endStream { flags |= FrameFlags.endStream }
            return Frame(type: index == 0 ? .headers : .continuation, flags: flags, streamID: streamID, payload: piece).encoded
        }
    }
}
