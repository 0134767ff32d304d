import RPCCore
import RPCHTTP2
import Testing

/// The router's `CallAuthorizer`, as the transport consults it: before the request is read or
/// any handler runs, with a trailers-only answer when it refuses.
@Suite("The router's authorizer, through the transport", .timeLimit(.minutes(1)))
struct AuthorizationTests {
    @Test("a call it lets through runs, and it was asked with the call's path and method")
    func letThrough() async throws {
        let authorizer = SesameAuthorizer()
        try await withTestServer(authorizer: authorizer) { server in
            let connection = try await server.connect()
            let reply = try await RPCClient(transport: connection).unary(Echo.get, EchoRequest(text: "in"), options: .sesame)
            #expect(reply.text == "in")
            #expect(authorizer.questions.map(\.path) == [Echo.get.descriptor.path])
            #expect(authorizer.questions.map(\.method) == [Echo.get.descriptor])
            await connection.close()
        }
    }

    @Test("a refusal ends the call trailers-only with message and detail, while the request is still unsent")
    func refusedBeforeTheRequest() async throws {
        try await withTestServer(authorizer: SesameAuthorizer()) { server in
            let connection = try await server.connect()
            // Headers only: the request body never comes, so only an answer that does not
            // wait for it can arrive.
            let call = try await connection.openCall(Echo.hang.descriptor, options: .defaults)
            let error = try await #require(throws: RPCError.self) { _ = try await call.receive() }
            #expect(error.code == .unauthenticated)
            #expect(error.message == "no token")
            #expect(error.detail?.reason == "unauthenticated")
            await connection.close()
        }
    }

    @Test("a refused call's handler never runs, and its connection goes on serving")
    func handlerNeverRuns() async throws {
        try await withTestServer(authorizer: SesameAuthorizer()) { server in
            let connection = try await server.connect()
            let client = RPCClient(transport: connection)
            let refused = try await #require(throws: RPCError.self) {
                try await client.unary(Echo.get, EchoRequest(text: "refused", sleepMs: 1))
            }
            #expect(refused.code == .unauthenticated)
            let reply = try await client.unary(Echo.get, EchoRequest(text: "allowed", sleepMs: 1), options: .sesame)
            #expect(reply.text == "allowed")
            // Had the refused call run, its handler would have started first.
            let firstStart = await server.probe.next { if case .started = $0 { true } else { false } }
            #expect(firstStart == .started("allowed"))
            await connection.close()
        }
    }

    @Test("a request that would not decode is refused as the authorizer says, not INVALID_ARGUMENT")
    func refusedBeforeDecoding() async throws {
        try await withTestServer(authorizer: SesameAuthorizer()) { server in
            let connection = try await server.connect()
            let call = try await connection.openCall(Echo.get.descriptor, options: .wrongToken)
            // The refusal may have ended the call already; its outcome is what `receive` says.
            try? await call.send(Array("{not json".utf8), endOfStream: true)
            let error = try await #require(throws: RPCError.self) { _ = try await call.receive() }
            #expect(error.code == .permissionDenied)
            #expect(error.detail?.details?["method"] == .string(Echo.get.descriptor.path))
            await connection.close()
        }
    }

    @Test("a server stream is refused before its handler or source, with no message",
          arguments: [Echo.expand, Echo.count])
    func serverStreamRefused(method: ServerStreamingMethod<EchoRequest, EchoResponse>) async throws {
        let authorizer = SesameAuthorizer()
        try await withTestServer(authorizer: authorizer) { server in
            let connection = try await server.connect()
            let stream = try await RPCClient(transport: connection).serverStreaming(method, EchoRequest(text: "s", count: 3))
            var received = 0
            let error = try await #require(throws: RPCError.self) { for try await _ in stream { received += 1 } }
            #expect(error.code == .unauthenticated)
            #expect(received == 0)
            #expect(server.probe.writtenCount == 0)
            #expect(authorizer.questions.map(\.method) == [method.descriptor])
            await connection.close()
        }
    }

    @Test("an unknown method is UNIMPLEMENTED, and the authorizer is not asked")
    func unknownMethod() async throws {
        let authorizer = SesameAuthorizer()
        try await withTestServer(authorizer: authorizer) { server in
            let connection = try await server.connect()
            let missing = UnaryMethod<EchoRequest, EchoResponse>(service: "echo.v1.Echo", method: "Nope")
            let error = try await #require(throws: RPCError.self) {
                try await RPCClient(transport: connection).unary(missing, EchoRequest(text: "x"))
            }
            #expect(error.code == .unimplemented)
            #expect(authorizer.questions.isEmpty)
            await connection.close()
        }
    }
}

extension CallOptions {
    /// Options carrying the token `SesameAuthorizer` accepts.
    static var sesame: CallOptions {
        var options = CallOptions()
        options.metadata.add("authorization", "Bearer \(SesameAuthorizer.token)")
        return options
    }

    /// Options carrying a token `SesameAuthorizer` refuses.
    static var wrongToken: CallOptions {
        var options = CallOptions()
        options.metadata.add("authorization", "Bearer wrong")
        return options
    }
}
