import RPCCore
@testable import RPCHTTP2
@testable import RPCHTTP2Client
@testable import RPCHTTP2Core
import Testing
@testable import RPCFraming

/// Unary routes registered with `ExecutionPolicy.inline` start on the connection's event loop where
/// their request completes, and answer there when they do not suspend: the same answers as a
/// task's route, metadata, errors and deadlines included. (The malformed bodies of
/// `BadInputTests` run against both kinds.)
@Suite("Inline unary routes", .timeLimit(.minutes(1)))
struct InlineRouteTests {
    @Test("an inline call answers with its initial and trailing metadata")
    func answer() async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            var options = CallOptions()
            options.metadata.add("x-echo", "abc")
            let response = try await RPCClient(transport: connection).unaryResponse(
                Echo.quick, EchoRequest(text: "héllo ✓", trailers: ["x-trace": "t1", "x-blob-bin": "raw"]), options: options)
            #expect(response.message == EchoResponse(text: "héllo ✓"))
            #expect(response.initialMetadata.first("x-echo") == "abc")
            #expect(response.trailingMetadata.first("x-trace") == "t1")
            #expect(response.trailingMetadata.firstBinary("x-blob-bin") == Array("raw".utf8))
            await connection.close()
        }
    }

    @Test("an inline handler's error reaches the client with status, message, detail and trailers")
    func error() async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            let request = EchoRequest(text: "x", status: 5, message: "no item 42 ✓", reason: "notFound", trailers: ["x-trace": "t1"])
            let error = try await #require(throws: RPCError.self) {
                try await RPCClient(transport: connection).unary(Echo.quick, request)
            }
            #expect(error.code == .notFound)
            #expect(error.message == "no item 42 ✓")
            #expect(error.detail?.reason == "notFound")
            #expect(error.metadata.first("x-trace") == "t1")
            await connection.close()
        }
    }

    @Test("an inline call whose handler suspends answers once it resumes: response, metadata, errors", arguments: [nil, 20])
    func answeredLater(sleepMs: Int?) async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            let client = RPCClient(transport: connection)
            let response = try await client.unaryResponse(
                Echo.later, EchoRequest(text: "later ✓", trailers: ["x-trace": "t1"], sleepMs: sleepMs))
            #expect(response.message == EchoResponse(text: "later ✓"))
            #expect(response.trailingMetadata.first("x-trace") == "t1")
            let error = try await #require(throws: RPCError.self) {
                try await client.unary(
                    Echo.later, EchoRequest(text: "x", status: 10, message: "conflict ✓", reason: "conflict", sleepMs: sleepMs))
            }
            #expect(error.code == .aborted)
            #expect(error.message == "conflict ✓")
            #expect(error.detail?.reason == "conflict")
            let answers = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<200 {
                    group.addTask { try await client.unary(Echo.later, EchoRequest(text: "call \(index)", sleepMs: sleepMs)).text }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(answers == Set((0..<200).map { "call \($0)" }))
            await connection.close()
        }
    }

    @Test("1000 concurrent inline calls on one connection each get their own answer")
    func concurrent() async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            let client = RPCClient(transport: connection)
            let answers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for index in 0..<1000 {
                    group.addTask { (index, try await client.unary(Echo.quick, EchoRequest(text: "call \(index)")).text) }
                }
                return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
            }
            #expect(answers.count == 1000)
            #expect(answers.allSatisfy { $0.value == "call \($0.key)" })
            await connection.close()
        }
    }

    @Test("a request split over many DATA frames is answered once it is whole")
    func splitRequest() async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            let call = try await connection.openCall(Echo.quick.descriptor, options: .defaults) as! ClientCall
            let framed = FramedMessage(Array(#"{"text":"in pieces"}"#.utf8), compression: .identity).bytes
            for (index, byte) in framed.enumerated() {
                try await call.sendFramed([byte], endOfStream: index == framed.count - 1)
            }
            let reply = try #require(try await call.receive())
            #expect(try JSONCodec.shared.decode(EchoResponse.self, from: reply) == EchoResponse(text: "in pieces"))
            #expect(try await call.receive() == nil)
            await connection.close()
        }
    }

    @Test("an inline call whose request never ends gets DEADLINE_EXCEEDED from the server")
    func deadline() async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            // grpc-timeout as plain metadata: the server's deadline, and no client timer to race it.
            var options = CallOptions()
            options.metadata.add("grpc-timeout", "100m")
            let call = try await connection.openCall(Echo.quick.descriptor, options: options)
            try await call.send(Array(#"{"text":"never ends"}"#.utf8), endOfStream: false)
            let error = try await #require(throws: RPCError.self) { _ = try await call.receive() }
            #expect(error.code == .deadlineExceeded)
            let reply = try await RPCClient(transport: connection).unary(Echo.quick, EchoRequest(text: "after"))
            #expect(reply.text == "after")
            await connection.close()
        }
    }

    @Test("an inline handler that suspended is cancelled when its deadline passes, and the call is DEADLINE_EXCEEDED")
    func suspendedHandlerCancelled() async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            var options = CallOptions()
            options.metadata.add("grpc-timeout", "100m")
            let call = try await connection.openCall(Echo.later.descriptor, options: options)
            try await call.send(Array(#"{"text":"sleeps","sleepMs":600000}"#.utf8), endOfStream: true)
            let error = try await #require(throws: RPCError.self) { _ = try await call.receive() }
            #expect(error.code == .deadlineExceeded)
            #expect(await server.probe.next { $0 == .cancelled("sleeps") } != nil)
            await connection.close()
        }
    }
}
