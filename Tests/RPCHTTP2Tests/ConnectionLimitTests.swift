import RPCCore
import RPCHTTP2
import Testing

/// Connections past `maxConnectionsPerPeer` or `maxConnections` are refused with a status a
/// gRPC client can read: their calls are answered RESOURCE_EXHAUSTED naming the limit, then
/// GOAWAY ENHANCE_YOUR_CALM (with the same words as debug data) closes them.
@Suite("Connection limits refuse with a clear status", .timeLimit(.minutes(1)))
struct ConnectionLimitTests {
    /// A limit of 2 connections, and the refusal it gives.
    struct Limit: Sendable, CustomTestStringConvertible {
        var name: String
        var configure: @Sendable (inout HTTP2ServerConfiguration) -> Void
        var message: String
        var testDescription: String { name }
    }

    static let limits = [
        Limit(name: "maxConnectionsPerPeer", configure: { $0.maxConnectionsPerPeer = 2 },
              message: "too many connections from 127.0.0.1 (limit 2)"),
        Limit(name: "maxConnections", configure: { $0.maxConnections = 2 },
              message: "too many connections to the server (limit 2)"),
    ]

    @Test("past the limit a connection's call is RESOURCE_EXHAUSTED naming it; a freed place is taken again", arguments: limits)
    func refusedPastTheLimit(limit: Limit) async throws {
        try await withTestServer(configure: limit.configure) { server in
            let first = try await server.connect()
            let second = try await server.connect()
            for connection in [first, second] {
                #expect(try await RPCClient(transport: connection).unary(Echo.get, EchoRequest(text: "in")).text == "in")
            }
            let third = try await server.connect()
            let error = try await #require(throws: RPCError.self) {
                try await RPCClient(transport: third).unary(Echo.get, EchoRequest(text: "out"))
            }
            #expect(error.code == .resourceExhausted)
            #expect(error.message == limit.message)
            #expect(error.detail?.reason == "tooManyConnections")
            await third.close()
            #expect(try await RPCClient(transport: second).unary(Echo.get, EchoRequest(text: "still")).text == "still")

            await first.close()
            // The server counts the closed connection out when it sees it close, a moment after
            // the client did: until then a new one may still be refused.
            var replacement: HTTP2ClientConnection?
            for _ in 0..<200 where replacement == nil {
                let candidate = try await server.connect()
                if (try? await RPCClient(transport: candidate).unary(Echo.get, EchoRequest(text: "new"))) != nil {
                    replacement = candidate
                } else {
                    await candidate.close()
                }
            }
            let admitted = try #require(replacement, "no new connection was served after one closed")
            #expect(try await RPCClient(transport: admitted).unary(Echo.get, EchoRequest(text: "again")).text == "again")
            await admitted.close()
            await second.close()
        }
    }

    @Test("the refusal on the wire: a trailers-only answer, then GOAWAY ENHANCE_YOUR_CALM with the reason, then close")
    func refusalFrames() async throws {
        try await withTestServer(configure: { $0.maxConnectionsPerPeer = 1 }) { server in
            let held = try await holdTheOnlyPlace(on: server)
            let port = server.port
            let frames = try await runBlocking {
                let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(10))
                defer { raw.close() }
                try raw.sendRaw(RawHTTP2Connection.clientPreface + Frame(type: .settings).encoded)
                try raw.sendEchoGet(streamID: 1, text: "refused")
                return try raw.readUntilClosed()
            }
            #expect(frames.filter { $0.streamID == 1 }.map(\.type) == [.headers], "\(frames)")
            #expect(frames.first { $0.streamID == 1 }?.isEndStream == true, "\(frames)")
            let goAway = try #require(frames.first { $0.type == .goAway }, "\(frames)")
            #expect(goAway.goAwayErrorCode == HTTP2ErrorCode.enhanceYourCalm, "\(goAway)")
            #expect(goAway.goAwayLastStreamID == 1, "\(goAway)")
            #expect(goAway.goAwayDebugData == "too many connections from 127.0.0.1 (limit 1)", "\(goAway)")
            await held.close()
        }
    }

    @Test("a connection from another address is served while 127.0.0.1 is at its limit")
    func otherPeerUnaffected() async throws {
        try await withTestServer(configure: { $0.maxConnectionsPerPeer = 1 }) { server in
            let held = try await holdTheOnlyPlace(on: server)
            let port = server.port
            let frames = try await runBlocking {
                let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(10), sourceAddress: "127.0.0.2")
                defer { raw.close() }
                try raw.sendPreface()
                try raw.sendEchoGet(streamID: 1, text: "elsewhere")
                let end = try raw.readUntil { $0.isEndStream || $0.type == .goAway }
                try check(end?.type == .headers, "closed or not answered: \(raw.receivedFrames)")
                return raw.receivedFrames
            }
            // Served: response headers, the message, trailers; no GOAWAY.
            #expect(frames.filter { $0.streamID == 1 }.map(\.type) == [.headers, .data, .headers], "\(frames)")
            #expect(!frames.contains { $0.type == .goAway }, "\(frames)")
            await held.close()
        }
    }

    @Test("a refused connection that opens no stream gets the GOAWAY when refusedConnectionTimeout is over")
    func silentRefusedConnection() async throws {
        try await withTestServer(configure: {
            $0.maxConnectionsPerPeer = 1
            $0.refusedConnectionTimeout = .milliseconds(200)
        }) { server in
            let held = try await holdTheOnlyPlace(on: server)
            let port = server.port
            let frames = try await runBlocking { try framesUntilClosed(silentConnectionTo: port) }
            let goAway = try #require(frames.first { $0.type == .goAway }, "\(frames)")
            #expect(goAway.goAwayErrorCode == HTTP2ErrorCode.enhanceYourCalm, "\(goAway)")
            #expect(goAway.goAwayLastStreamID == 0, "\(goAway)")
            #expect(goAway.goAwayDebugData == "too many connections from 127.0.0.1 (limit 1)", "\(goAway)")
            await held.close()
        }
    }

    /// A connection from 127.0.0.1 that was served, so that the limit of 1 is reached.
    private func holdTheOnlyPlace(on server: TestServer) async throws -> HTTP2ClientConnection {
        let held = try await server.connect()
        #expect(try await RPCClient(transport: held).unary(Echo.get, EchoRequest(text: "held")).text == "held")
        return held
    }
}
