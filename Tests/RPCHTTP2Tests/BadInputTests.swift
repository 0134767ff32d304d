import Foundation
import RPCCore
@testable import RPCHTTP2
@testable import RPCHTTP2Client
import Testing

/// Malformed requests end their own call with the status gRPC prescribes, and nothing else:
/// the same connection still serves a good call and other connections are served meanwhile.
@Suite("Bad input gets the right status", .timeLimit(.minutes(1)))
struct BadInputTests {
    @Test("a stream that ends inside the 5-byte prefix is INTERNAL", arguments: Self.unaryKinds)
    func truncatedPrefix(method: MethodDescriptor) async throws {
        try await withTestServer { server in
            let error = try await failure(on: server, method: method) { call in
                try await call.sendFramed([0, 0, 0], endOfStream: true)
            }
            // grpc-go answers the same: the stream ended inside a message prefix.
            #expect(error.code == .internalError)
            #expect(error.message.contains("prefix"), "\(error)")
        }
    }

    @Test("a stream that ends inside a message body is INTERNAL", arguments: Self.unaryKinds)
    func truncatedBody(method: MethodDescriptor) async throws {
        try await withTestServer { server in
            let error = try await failure(on: server, method: method) { call in
                try await call.sendFramed([0, 0, 0, 0, 10] + [1, 2, 3, 4], endOfStream: true)
            }
            #expect(error.code == .internalError)
            #expect(error.message.contains("4 of 10"), "\(error)")
        }
    }

    @Test("a prefix announcing more than the limit is RESOURCE_EXHAUSTED before the body arrives", arguments: Self.unaryKinds)
    func lengthOverLimit(method: MethodDescriptor) async throws {
        try await withTestServer(configure: { $0.maxReceiveMessageSize = 1024 }) { server in
            let error = try await failure(on: server, method: method) { call in
                // 1 000 000 bytes announced, 4 sent, and the stream stays open: the answer
                // cannot wait for a body that never comes.
                try await call.sendFramed([0, 0x00, 0x0F, 0x42, 0x40] + Array(#"{"te"#.utf8), endOfStream: false)
            }
            #expect(error.code == .resourceExhausted)
            #expect(error.message.contains("1000000"), "\(error)")
        }
    }

    @Test("a compressed flag without grpc-encoding is INTERNAL", arguments: Self.unaryKinds)
    func compressedFlagWithoutEncoding(method: MethodDescriptor) async throws {
        try await withTestServer { server in
            let error = try await failure(on: server, method: method) { call in
                try await call.sendFramed([1, 0, 0, 0, 2] + Array("{}".utf8), endOfStream: true)
            }
            #expect(error.code == .internalError)
            #expect(error.message.contains("grpc-encoding"), "\(error)")
        }
    }

    @Test("a body that is not JSON is INVALID_ARGUMENT, reason invalidMessage", arguments: Self.unaryKinds)
    func invalidJSON(method: MethodDescriptor) async throws {
        try await withTestServer { server in
            let error = try await failure(on: server, method: method) { call in
                try await call.send(Array("{not json".utf8), endOfStream: true)
            }
            #expect(error.code == .invalidArgument)
            #expect(error.detail?.reason == "invalidMessage")
        }
    }

    @Test("a missing required field is INVALID_ARGUMENT naming the field", arguments: Self.unaryKinds)
    func missingRequiredField(method: MethodDescriptor) async throws {
        try await withTestServer { server in
            let error = try await failure(on: server, method: method) { call in
                try await call.send(Array("{}".utf8), endOfStream: true)
            }
            #expect(error.code == .invalidArgument)
            #expect(error.detail?.field == "text")
        }
    }

    @Test("two messages on a unary call are INVALID_ARGUMENT", arguments: Self.unaryKinds)
    func twoMessages(method: MethodDescriptor) async throws {
        try await withTestServer { server in
            let error = try await failure(on: server, method: method) { call in
                let message = try JSONCodec.shared.encode(EchoRequest(text: "one"))
                try await call.send(message, endOfStream: false)
                try await call.send(message, endOfStream: true)
            }
            #expect(error.code == .invalidArgument)
            #expect(error.detail?.reason == "tooManyMessages")
        }
    }

    @Test("a unary call without a message is INVALID_ARGUMENT", arguments: Self.unaryKinds)
    func noMessage(method: MethodDescriptor) async throws {
        try await withTestServer { server in
            let error = try await failure(on: server, method: method) { call in
                try await call.sendFramed([], endOfStream: true)
            }
            #expect(error.code == .invalidArgument)
            #expect(error.detail?.reason == "missingMessage")
        }
    }

    @Test("a content-type that is not gRPC gets HTTP 415, which the client reports")
    func wrongContentType() async throws {
        try await withTestServer { server in
            var configuration = HTTP2ClientConfiguration.defaults
            configuration.contentType = "text/plain"
            let connection = try await server.connect(configuration)
            let error = try await #require(throws: RPCError.self) {
                try await RPCClient(transport: connection).unary(Echo.get, EchoRequest(text: "x"))
            }
            // gRPC's HTTP-to-status mapping has no entry for 415: UNKNOWN, with the HTTP status in the message.
            #expect(error.code == .unknown)
            #expect(error.message.contains("415"), "\(error)")
            #expect(try await server.servesAnotherConnection())
            await connection.close()
        }
    }

    @Test("an unsupported grpc-encoding is UNIMPLEMENTED")
    func unsupportedEncoding() async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            // The client sends metadata as it is given, reserved names included: the only way,
            // short of decoding HPACK by hand, to send a grpc-encoding the client does not know.
            var options = CallOptions()
            options.metadata.add("grpc-encoding", "br")
            let error = try await #require(throws: RPCError.self) {
                try await RPCClient(transport: connection).unary(Echo.get, EchoRequest(text: "x"), options: options)
            }
            #expect(error.code == .unimplemented)
            #expect(error.message.contains("br"), "\(error)")
            #expect(try await server.servesAnotherConnection())
            await connection.close()
        }
    }

    @Test("garbage instead of the connection preface is HTTP/1.1 that does not parse: 400, then that connection closes")
    func garbagePreface() async throws {
        try await withTestServer { server in
            let port = server.port
            let answer = try await runBlocking {
                let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(10))
                defer { raw.close() }
                let garbage = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
                try raw.sendRaw(garbage)
                return try raw.readRawUntilClosed()
            }
            #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
            #expect(try await server.servesAnotherConnection())
        }
    }

    // MARK: Helpers

    /// Both kinds of unary route: run in a task, and inline on the event loop.
    static let unaryKinds = [Echo.get.descriptor, Echo.quick.descriptor]

    /// Opens a call of `method` (`Echo.get` or `Echo.quick`) on a new connection, lets `send` write its request body, and
    /// returns the error the call ends with. Before closing, checks that the bad call broke
    /// neither its own connection nor the server: a good call on the same connection and one
    /// on another connection are both answered.
    private func failure(
        on server: TestServer,
        method: MethodDescriptor,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ send: (ClientCall) async throws -> Void
    ) async throws -> RPCError {
        let connection = try await server.connect()
        let call = try await connection.openCall(method, options: .defaults) as! ClientCall
        try await send(call)
        let error = try await #require(throws: RPCError.self, sourceLocation: sourceLocation) {
            _ = try await call.receive()
        }
        #expect(try await server.servesAnotherConnection(), sourceLocation: sourceLocation)
        let reply = try await RPCClient(transport: connection).unary(Echo.get, EchoRequest(text: "after"))
        #expect(reply.text == "after", sourceLocation: sourceLocation)
        await connection.close()
        return error
    }
}
