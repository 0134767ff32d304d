import RPCCore
import Testing

@testable import RPCHTTP2

/// `grpc-timeout` is the peer's to choose: every value the header can carry is served, the
/// longest ones as no deadline at all, and one that has passed already starts no handler.
@Suite("Deadlines a peer chooses", .timeLimit(.minutes(1)))
struct PeerDeadlineTests {
    @Test("durations convert to nanoseconds without trapping, saturating at the ends", arguments: [
        (Duration.zero, Int64(0)),
        (.nanoseconds(-1), -1),
        (.seconds(9_223_372_036), 9_223_372_036_000_000_000),
        (.seconds(9_223_372_036) + .nanoseconds(854_775_807), .max),
        (.seconds(9_223_372_036) + .nanoseconds(854_775_808), .max),
        (.seconds(9_223_372_037), .max),
        (.seconds(99_999_999 * 3_600), .max),
        (.seconds(Int64.max), .max),
        (.seconds(-9_223_372_036) - .nanoseconds(854_775_808), .min),
        (.seconds(-9_223_372_037), .min),
        (.seconds(Int64.min), .min),
    ])
    func saturatingNanoseconds(duration: Duration, expected: Int64) {
        #expect(duration.nanoseconds == expected)
    }

    /// 2562048H is the first number of hours whose nanoseconds overflow 64 bits.
    @Test(
        "the longest timeouts are served like any other call",
        arguments: ["99999999H", "2562048H", "2562047H", "99999999M", "99999999S"], [Echo.get, Echo.quick])
    func longestTimeouts(timeout: String, method: UnaryMethod<EchoRequest, EchoResponse>) async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            // As plain metadata: the client library sends it as given.
            var options = CallOptions()
            options.metadata.add("grpc-timeout", timeout)
            let reply = try await RPCClient(transport: connection).unary(method, EchoRequest(text: timeout), options: options)
            #expect(reply.text == timeout)
            await connection.close()
            #expect(try await server.servesAnotherConnection())
        }
    }

    @Test("a timeout of zero is DEADLINE_EXCEEDED, and the handler never runs", arguments: ["0n", "0H", "00000000S"], [Echo.get, Echo.quick])
    func zeroTimeout(timeout: String, method: UnaryMethod<EchoRequest, EchoResponse>) async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            var options = CallOptions()
            options.metadata.add("grpc-timeout", timeout)
            let client = RPCClient(transport: connection)
            let error = try await #require(throws: RPCError.self) {
                try await client.unary(method, EchoRequest(text: "too late", sleepMs: 0), options: options)
            }
            #expect(error.code == .deadlineExceeded, "\(error)")
            // (`sleepMs` makes `Get` record its start too.)
            #expect(try await client.unary(method, EchoRequest(text: "next", sleepMs: 0)).text == "next")
            // Handlers record their start in order: the first one to start is the next call's.
            let firstStarted = await server.probe.next { if case .started = $0 { true } else { false } }
            #expect(firstStarted == .started("next"))
            await connection.close()
        }
    }

    /// The request in one write, as most clients send it: an inline call is answered before
    /// any timer runs, so only the check of the timeout itself can refuse it.
    @Test("a timeout of zero sent with its request in one write gets a trailers-only answer, no message", arguments: [Echo.get, Echo.quick])
    func zeroTimeoutInOneWrite(method: UnaryMethod<EchoRequest, EchoResponse>) async throws {
        try await withTestServer { server in
            let port = server.port
            let frames = try await runBlocking {
                let raw = try RawHTTP2Connection(port: port)
                defer { raw.close() }
                let headers = RawHTTP2Connection.grpcRequestHeaders(path: method.descriptor.path) + [("grpc-timeout", "0n")]
                try raw.sendRaw(
                    RawHTTP2Connection.clientPreface + Frame(type: .settings).encoded
                        + Frame(type: .headers, flags: FrameFlags.endHeaders, streamID: 1,
                                payload: RawHTTP2Connection.hpackLiteral(headers)).encoded
                        + Frame(type: .data, flags: FrameFlags.endStream, streamID: 1, payload: grpcMessage(#"{"text":"late"}"#)).encoded)
                _ = try raw.readUntil { $0.streamID == 1 && $0.isEndStream }
                return raw.receivedFrames.filter { $0.streamID == 1 }
            }
            #expect(frames.map(\.type) == [.headers], "\(frames)")
        }
    }
}

