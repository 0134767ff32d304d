import Testing

@testable import RPCHTTP2

/// HEADERS on a stream that is not open (RFC 9113 §5.1, §5.1.1), which nghttp2 lets pass:
/// the connection ends with the RFC's error instead of leaving the client waiting.
@Suite("HEADERS on streams that are gone", .timeLimit(.minutes(1)))
struct StreamStateViolationTests {
    @Test("ids above every one used open streams; skipped ids are PROTOCOL_ERROR, ended ones STREAM_CLOSED")
    func verdicts() {
        var history = ClientStreamHistory()
        #expect(history.judge(headersOn: 1) == .opens)
        history.opened(1)
        history.opened(3)
        history.opened(9)  // skips 5 and 7
        #expect(history.judge(headersOn: 11) == .opens)
        #expect(history.judge(headersOn: 1).errorCode == HTTP2ErrorCode.streamClosed)
        #expect(history.judge(headersOn: 3).errorCode == HTTP2ErrorCode.streamClosed)
        #expect(history.judge(headersOn: 5).errorCode == HTTP2ErrorCode.protocolError)
        #expect(history.judge(headersOn: 7).errorCode == HTTP2ErrorCode.protocolError)
        #expect(history.judge(headersOn: 9).errorCode == HTTP2ErrorCode.streamClosed)
        #expect(history.judge(headersOn: 0).errorCode == HTTP2ErrorCode.protocolError)
        #expect(history.judge(headersOn: 4).errorCode == HTTP2ErrorCode.protocolError)
        #expect(history.judge(headersOn: 12).errorCode == HTTP2ErrorCode.protocolError)
        history.reset(3)
        #expect(history.judge(headersOn: 3) == .ignored)
    }

    @Test("what it remembers is bounded: the oldest skips and resets are forgotten, and then count as ended streams")
    func bounded() {
        var history = ClientStreamHistory()
        var id: Int32 = 1
        for _ in 0..<(ClientStreamHistory.rememberedSkips + 2) {
            history.opened(id)
            id += 4  // skips one id each time: 3, 7, 11…
        }
        // The first skip (3) is forgotten, the second (7) still known.
        #expect(history.judge(headersOn: 3).errorCode == HTTP2ErrorCode.streamClosed)
        #expect(history.judge(headersOn: 7).errorCode == HTTP2ErrorCode.protocolError)
        history.opened(10_001)
        for stream in 0..<Int32(ClientStreamHistory.rememberedResets + 1) { history.reset(2 * stream + 1) }
        #expect(history.judge(headersOn: 1).errorCode == HTTP2ErrorCode.streamClosed)
        #expect(history.judge(headersOn: 3) == .ignored)
        #expect(history.judge(headersOn: 2 * Int32(ClientStreamHistory.rememberedResets) + 1) == .ignored)
    }

    @Test("HEADERS on a stream whose call ended is a connection error STREAM_CLOSED")
    func headersOnEndedStream() async throws {
        try await withTestServer { server in
            let port = server.port
            let goAway = try await runBlocking {
                try closingGoAway(onConnectionTo: port) { raw in
                    try raw.sendEchoGet(streamID: 1, text: "once")
                    _ = try raw.readUntil { $0.streamID == 1 && $0.isEndStream }
                    try raw.sendEchoGet(streamID: 1, text: "again")
                }
            }
            #expect(goAway?.goAwayErrorCode == HTTP2ErrorCode.streamClosed, "\(String(describing: goAway))")
            #expect(goAway?.goAwayLastStreamID == 1)
            #expect(try await server.servesAnotherConnection())
        }
    }

    @Test("HEADERS on a stream id below one already used is a connection error PROTOCOL_ERROR")
    func headersOnLowerID() async throws {
        try await withTestServer { server in
            let port = server.port
            let goAway = try await runBlocking {
                try closingGoAway(onConnectionTo: port) { raw in
                    try raw.sendEchoGet(streamID: 5, text: "five")
                    _ = try raw.readUntil { $0.streamID == 5 && $0.isEndStream }
                    try raw.sendEchoGet(streamID: 3, text: "three")
                }
            }
            #expect(goAway?.goAwayErrorCode == HTTP2ErrorCode.protocolError, "\(String(describing: goAway))")
            #expect(try await server.servesAnotherConnection())
        }
    }

    @Test("HEADERS on a stream the client half-closed, its call still running, is a connection error STREAM_CLOSED")
    func headersOnHalfClosedStream() async throws {
        try await withTestServer { server in
            let port = server.port
            let goAway = try await runBlocking {
                try closingGoAway(onConnectionTo: port) { raw in
                    let headers = RawHTTP2Connection.grpcRequestHeaders(path: Echo.hang.descriptor.path)
                    try raw.sendHeaders(streamID: 1, headers: headers, endStream: false)
                    try raw.sendData(streamID: 1, grpcMessage(#"{"text":"hanging"}"#), endStream: true)
                    try raw.sendHeaders(streamID: 1, headers: [("x-late", "1")], endStream: true)
                }
            }
            #expect(goAway?.goAwayErrorCode == HTTP2ErrorCode.streamClosed, "\(String(describing: goAway))")
        }
    }

    @Test("trailers the client sent before it saw the server reset the stream are ignored")
    func trailersAfterServerReset() async throws {
        try await withTestServer { server in
            let port = server.port
            try await runBlocking {
                let raw = try RawHTTP2Connection(port: port)
                defer { raw.close() }
                try raw.sendPreface()
                // A connection-specific field is malformed in HTTP/2: nghttp2 resets the stream.
                let malformed = RawHTTP2Connection.grpcRequestHeaders(path: Echo.get.descriptor.path) + [("connection", "close")]
                try raw.sendHeaders(streamID: 1, headers: malformed, endStream: false)
                let reset = try raw.readUntil { $0.streamID == 1 && $0.type == .rstStream }
                try check(reset != nil, "stream 1 was not reset: \(raw.receivedFrames)")
                try raw.sendData(streamID: 1, grpcMessage(#"{"text":"late"}"#), endStream: false)
                try raw.sendHeaders(streamID: 1, headers: [("x-late", "1")], endStream: true)
                try raw.sendEchoGet(streamID: 3, text: "still served")
                let answer = try raw.readUntil { $0.streamID == 3 && $0.isEndStream }
                try check(answer?.type == .headers, "stream 3 was not answered: \(raw.receivedFrames)")
                try check(!raw.receivedFrames.contains { $0.type == .goAway }, "the connection ended: \(raw.receivedFrames)")
            }
        }
    }
}

extension ClientStreamHistory.Verdict {
    /// The error code of a violation; `nil` otherwise.
    fileprivate var errorCode: UInt32? {
        if case .violation(let code, _) = self { code } else { nil }
    }
}
