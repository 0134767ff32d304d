import ChildProcess
import Foundation
import RPCCore
import RPCHTTP2
import TestCertificates
import Testing

/// What `echo_client.py` prints: one JSON object with a result per call (codes by name).
private struct GrpcioClientReport: Decodable {
    struct Unary: Decodable {
        var code: String
        var text: String?
        var initial: [String: String]
        var details: String?
    }

    struct UnaryError: Decodable {
        var code: String
        var details: String?
        var trailers: [String: String]
        var errorDetail: ErrorDetail?

        enum CodingKeys: String, CodingKey {
            case code, details, trailers
            case errorDetail = "error_detail"
        }
    }

    struct Stream: Decodable {
        var code: String
        var count: Int
        var indexesInOrder: Bool
        var details: String?

        enum CodingKeys: String, CodingKey {
            case code, count, details
            case indexesInOrder = "indexes_in_order"
        }
    }

    struct StreamError: Decodable {
        var code: String
        var received: Int
        var details: String?
        var errorDetail: ErrorDetail?

        enum CodingKeys: String, CodingKey {
            case code, received, details
            case errorDetail = "error_detail"
        }
    }

    struct CodeOnly: Decodable {
        var code: String
        var details: String?
    }

    struct Compressed: Decodable {
        var code: String
        var length: Int?
        var details: String?
    }

    var unary: Unary
    var unaryError: UnaryError
    var stream: Stream
    var longStream: Stream
    var streamError: StreamError
    var unknownMethod: CodeOnly
    var deadline: CodeOnly
    var compressed: Compressed
    var badJSON: CodeOnly

    enum CodingKeys: String, CodingKey {
        case unary, stream, deadline, compressed
        case unaryError = "unary_error"
        case streamError = "stream_error"
        case longStream = "long_stream"
        case unknownMethod = "unknown_method"
        case badJSON = "bad_json"
    }
}

/// What `auth_client.py` and `tls_client.py` print for each call.
private struct GrpcioAuthOutcome: Decodable {
    var code: String
    var details: String?
    var errorDetail: ErrorDetail?
    var text: String?
    var received: Int?

    enum CodingKeys: String, CodingKey {
        case code, details, text, received
        case errorDetail = "error_detail"
    }
}

/// Each test starts a Python interpreter: `.serialized` keeps eight of them from starting at
/// once on two cores while every other suite runs too.
@Suite("Interop with grpcio", .serialized)
struct InteropTests {
    // MARK: grpcio client -> our server

    @Test("grpcio calls our server and sees every call end as gRPC says it should")
    func grpcioCallsOurServer() async throws {
        try await withTestServer { server in
            let output = try await PythonProcess.output(ofScript: "echo_client.py", arguments: ["--target", "127.0.0.1:\(server.port)"])
            let report = try JSONDecoder().decode(GrpcioClientReport.self, from: Data(output))

            #expect(report.unary.code == "OK", "\(report.unary.details ?? "")")
            #expect(report.unary.text == "héllo")
            #expect(report.unary.initial["x-echo"] == "abc")

            #expect(report.unaryError.code == "NOT_FOUND")
            #expect(report.unaryError.details == "no item 42 ✓")
            #expect(report.unaryError.trailers["x-trace"] == "t1")
            #expect(report.unaryError.trailers["x-blob-bin"] == "raw")
            #expect(report.unaryError.errorDetail?.reason == "notFound")

            #expect(report.stream.code == "OK", "\(report.stream.details ?? "")")
            #expect(report.stream.count == 1000)
            #expect(report.stream.indexesInOrder)

            #expect(report.longStream.code == "OK", "\(report.longStream.details ?? "")")
            #expect(report.longStream.count == 20_000)
            #expect(report.longStream.indexesInOrder)

            #expect(report.streamError.code == "FAILED_PRECONDITION")
            #expect(report.streamError.received == 3)
            #expect(report.streamError.details == "stop")
            #expect(report.streamError.errorDetail?.reason == "tooFar")

            #expect(report.unknownMethod.code == "UNIMPLEMENTED", "\(report.unknownMethod.details ?? "")")
            #expect(report.deadline.code == "DEADLINE_EXCEEDED", "\(report.deadline.details ?? "")")

            #expect(report.compressed.code == "OK", "\(report.compressed.details ?? "")")
            #expect(report.compressed.length == 10_000)

            #expect(report.badJSON.code == "INVALID_ARGUMENT", "\(report.badJSON.details ?? "")")
        }
    }

    @Test("grpcio sends a bearer token as authorization metadata, and sees refusals as the authorizer answers them")
    func grpcioSendsBearerTokens() async throws {
        try await withTestServer(authorizer: SesameAuthorizer()) { server in
            let output = try await PythonProcess.output(ofScript: "auth_client.py", arguments: ["--target", "127.0.0.1:\(server.port)"])
            let stdout = String(decoding: output, as: UTF8.self)
            let report = try JSONDecoder().decode([String: GrpcioAuthOutcome].self, from: Data(output))

            #expect(report["no_token"]?.code == "UNAUTHENTICATED", "\(stdout)")
            #expect(report["no_token"]?.details == "no token")
            #expect(report["no_token"]?.errorDetail?.reason == "unauthenticated")
            #expect(report["wrong_token"]?.code == "PERMISSION_DENIED", "\(stdout)")
            #expect(report["wrong_token"]?.errorDetail?.details?["method"] == "/echo.v1.Echo/Get")
            #expect(report["token"]?.code == "OK", "\(stdout)")
            #expect(report["token"]?.text == "with token")
            #expect(report["stream_no_token"]?.code == "UNAUTHENTICATED", "\(stdout)")
            #expect(report["stream_no_token"]?.received == 0)
        }
    }

    @Test("grpcio calls our server over TLS, trusting only the test's CA", arguments: [nil, "localhost"])
    func grpcioOverTLS(serverName: String?) async throws {
        let pki = try TestPKI()
        let tls = try pki.serverTLS()
        try await withTestServer(configure: { $0.tls = tls }) { server in
            let arguments = ["--target", "127.0.0.1:\(server.port)", "--ca", pki.caFile] + (serverName.map { ["--server-name", $0] } ?? [])
            let output = try await PythonProcess.output(ofScript: "tls_client.py", arguments: arguments)
            let stdout = String(decoding: output, as: UTF8.self)
            let report = try JSONDecoder().decode([String: GrpcioAuthOutcome].self, from: Data(output))
            #expect(report["unary"]?.code == "OK", "\(stdout)")
            #expect(report["unary"]?.text == "over TLS")
            #expect(report["stream"]?.code == "OK", "\(stdout)")
            #expect(report["stream"]?.received == 5)
        }
    }

    // MARK: our client -> grpcio server

    @Test("our client gets a grpcio unary response with initial and trailing metadata")
    func unaryAgainstGrpcio() async throws {
        try await withGrpcioEchoServer { port in
            let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port)
            let client = RPCClient(transport: connection)
            var options = CallOptions()
            options.metadata.add("x-echo", "abc")
            let response = try await client.unaryResponse(
                Echo.get, EchoRequest(text: "héllo ✓", trailers: ["x-trace": "t1", "x-blob-bin": "raw"]), options: options)
            #expect(response.message == EchoResponse(text: "héllo ✓"))
            #expect(response.initialMetadata.first("x-echo") == "abc")
            #expect(response.trailingMetadata.first("x-trace") == "t1")
            #expect(response.trailingMetadata.firstBinary("x-blob-bin") == Array("raw".utf8))
            await connection.close()
        }
    }

    @Test("a grpcio error reaches our client with status, message, detail and trailers")
    func errorAgainstGrpcio() async throws {
        try await withGrpcioEchoServer { port in
            let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port)
            let client = RPCClient(transport: connection)
            let request = EchoRequest(text: "x", status: 5, message: "no item 42 ✓", reason: "notFound", trailers: ["x-trace": "t1"])
            let error = try await #require(throws: RPCError.self) { try await client.unary(Echo.get, request) }
            #expect(error.code == .notFound)
            #expect(error.message == "no item 42 ✓")
            #expect(error.detail?.reason == "notFound")
            #expect(error.metadata.first("x-trace") == "t1")
            await connection.close()
        }
    }

    @Test("a grpcio server stream delivers 1000 messages in order")
    func streamAgainstGrpcio() async throws {
        try await withGrpcioEchoServer { port in
            let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port)
            let stream = try await RPCClient(transport: connection).serverStreaming(
                Echo.expand, EchoRequest(text: "w", count: 1000))
            var indexes: [Int?] = []
            for try await message in stream { indexes.append(message.index) }
            #expect(indexes == Array(0..<1000))
            await connection.close()
        }
    }

    @Test("a grpcio server stream that fails after three messages yields them, then the error")
    func streamThenErrorAgainstGrpcio() async throws {
        try await withGrpcioEchoServer { port in
            let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port)
            let stream = try await RPCClient(transport: connection).serverStreaming(
                Echo.expand, EchoRequest(text: "w", count: 3, status: 9, message: "stop", reason: "tooFar"))
            var received = 0
            let error = try await #require(throws: RPCError.self) {
                for try await _ in stream { received += 1 }
            }
            #expect(received == 3)
            #expect(error.code == .failedPrecondition)
            #expect(error.message == "stop")
            #expect(error.detail?.reason == "tooFar")
            await connection.close()
        }
    }

    @Test("grpcio answers our client stream once, and each message of our bidirectional stream in turn")
    func requestStreamsAgainstGrpcio() async throws {
        try await withGrpcioEchoServer { port in
            let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port)
            let client = RPCClient(transport: connection)
            let collected = try await client.clientStreaming(Echo.collect) { writer in
                for index in 0..<1000 { try await writer.write(EchoRequest(text: index % 100 == 0 ? "k" : "")) }
            }
            #expect(collected == EchoResponse(text: "kkkkkkkkkk", index: 1000))
            let refused = await #expect(throws: RPCError.self) {
                try await client.clientStreaming(Echo.collect) { writer in
                    try await writer.write(EchoRequest(text: "a"))
                    try await writer.write(EchoRequest(text: "b", status: 5, message: "no b"))
                    while true { try await writer.write(EchoRequest(text: "more")) }
                }
            }
            #expect(refused?.code == .notFound)
            #expect(refused?.message == "no b")

            let answers = try await chatInLockstep(client, count: 50)
            #expect(answers == (0..<50).map { (index: Int) in EchoResponse(text: "ping \(index)", index: index) })
            await connection.close()
        }
    }

    @Test("our deadline ends a slow grpcio call with DEADLINE_EXCEEDED")
    func deadlineAgainstGrpcio() async throws {
        try await withGrpcioEchoServer { port in
            let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port)
            let client = RPCClient(transport: connection)
            let clock = ContinuousClock()
            let start = clock.now
            let error = try await #require(throws: RPCError.self) {
                try await client.unary(Echo.get, EchoRequest(text: "slow", sleepMs: 2000), options: CallOptions(timeout: .milliseconds(200)))
            }
            #expect(error.code == .deadlineExceeded)
            #expect(start.duration(to: clock.now) < .milliseconds(1500))
            await connection.close()
        }
    }

    @Test("a gzip-compressed request to grpcio is answered")
    func gzipAgainstGrpcio() async throws {
        try await withGrpcioEchoServer { port in
            let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port)
            let text = String(repeating: "z", count: 10_000)
            let reply = try await RPCClient(transport: connection).unary(
                Echo.get, EchoRequest(text: text), options: CallOptions(compression: .gzip))
            #expect(reply.text == text)
            await connection.close()
        }
    }

    @Test("an unknown method on grpcio is UNIMPLEMENTED")
    func unknownMethodAgainstGrpcio() async throws {
        try await withGrpcioEchoServer { port in
            let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port)
            let missing = UnaryMethod<EchoRequest, EchoResponse>(service: "echo.v1.Echo", method: "Nope")
            let error = try await #require(throws: RPCError.self) {
                try await RPCClient(transport: connection).unary(missing, EchoRequest(text: "x"))
            }
            #expect(error.code == .unimplemented)
            await connection.close()
        }
    }
}
