import InMemoryLogging
import Logging
import RPCCore
import RPCHTTP2
import Testing

/// The access log: one entry per call, written before the call's end reaches the client,
/// with method, status, duration, peer, caller, messages and bytes, and no credential.
@Suite("Access log", .timeLimit(.minutes(1)))
struct AccessLogTests {
    @Test("one entry per call with method, status, caller and counts, and never the token")
    func entryPerCall() async throws {
        let log = InMemoryLogHandler()
        try await withTestServer(configure: { $0.accessLogLevel = .info }, authorizer: SesameAuthorizer(), logger: log.logger) { server in
            let connection = try await server.connect()
            let client = RPCClient(transport: connection)
            _ = try await client.unary(Echo.get, EchoRequest(text: "hi"), options: .sesame)
            _ = try? await client.unary(Echo.get, EchoRequest(text: "no token"))
            _ = try? await client.unary(Echo.get, EchoRequest(text: "wrong token"), options: .wrongToken)
            _ = try? await client.unary(Echo.get, EchoRequest(text: "x", status: 5, message: "gone"), options: .sesame)
            _ = try? await client.unary(UnaryMethod<EchoRequest, EchoResponse>(service: "echo.v1.Echo", method: "Nope"), EchoRequest(text: "x"))
            await connection.close()
        }
        let calls = log.calls
        try #require(calls.count == 5, "\(log.entries)")
        #expect(calls.map { $0["method"] } == Array(repeating: "/echo.v1.Echo/Get", count: 4) + ["/echo.v1.Echo/Nope"])
        #expect(calls.map { $0["status"] } == ["OK", "UNAUTHENTICATED", "PERMISSION_DENIED", "NOT_FOUND", "UNIMPLEMENTED"])
        #expect(calls.map { $0["caller"] } == ["tester", nil, "stranger", "tester", nil], "a refused caller is named too")
        let ok = calls[0]
        #expect(ok["request_messages"] == "1")
        #expect(ok["response_messages"] == "1")
        let requestJSON = #"{"text":"hi"}"#.utf8.count
        #expect(ok["request_bytes"] == "\(5 + requestJSON)")
        #expect(ok["response_bytes"] == "\(5 + requestJSON)", "the echo is the same JSON")
        for call in calls {
            let duration = try #require(call["duration_ms"].flatMap(Double.init), "\(call)")
            #expect(duration >= 0)
            #expect(call["peer"]?.contains("127.0.0.1") == true, "\(call)")
        }
        #expect(calls[1]["request_messages"] == "0", "refused before its body was read")
        #expect(!log.entries.contains { "\($0)".contains(SesameAuthorizer.token) || "\($0)".contains("wrong") }, "\(log.entries)")
    }

    @Test("server streams count their messages; a pulled stream's entry comes when the source ends it")
    func streams() async throws {
        let log = InMemoryLogHandler()
        try await withTestServer(configure: { $0.accessLogLevel = .info }, logger: log.logger) { server in
            let connection = try await server.connect()
            let client = RPCClient(transport: connection)
            for method in [Echo.expand, Echo.count] {
                let stream = try await client.serverStreaming(method, EchoRequest(text: "s", count: 3, status: 11, message: "end"))
                let error = try await #require(throws: RPCError.self) { for try await _ in stream {} }
                #expect(error.code == .outOfRange)
            }
            await connection.close()
        }
        let calls = log.calls
        #expect(calls.map { $0["method"] } == ["/echo.v1.Echo/Expand", "/echo.v1.Echo/Count"])
        #expect(calls.map { $0["status"] } == ["OUT_OF_RANGE", "OUT_OF_RANGE"])
        #expect(calls.map { $0["response_messages"] } == ["3", "3"])
    }

    @Test("a deadline and a client's cancel are logged as DEADLINE_EXCEEDED and CANCELLED")
    func abortedCalls() async throws {
        let log = InMemoryLogHandler()
        try await withTestServer(configure: { $0.accessLogLevel = .info }, logger: log.logger) { server in
            let connection = try await server.connect()
            let client = RPCClient(transport: connection)
            // grpc-timeout as plain metadata: the server's deadline, and no client timer to race it.
            var options = CallOptions()
            options.metadata.add("grpc-timeout", "100m")
            let late = try await connection.openCall(Echo.hang.descriptor, options: options)
            try await late.send(Array(#"{"text":"late"}"#.utf8), endOfStream: true)
            let error = try await #require(throws: RPCError.self) { _ = try await late.receive() }
            #expect(error.code == .deadlineExceeded)

            let call = try await connection.openCall(Echo.hang.descriptor, options: .defaults)
            try await call.send(Array(#"{"text":"cancelled"}"#.utf8), endOfStream: true)
            #expect(await server.probe.next { $0 == .started("cancelled") } != nil)
            call.cancel()
            // The server reads this connection's frames in order: once the next call is
            // answered, it has seen the RST_STREAM before it.
            _ = try await client.unary(Echo.get, EchoRequest(text: "after"))
            await connection.close()
        }
        #expect(log.calls.map { $0["status"] } == ["DEADLINE_EXCEEDED", "CANCELLED", "OK"])
        #expect(log.calls.map { $0["method"] } == ["/echo.v1.Echo/Hang", "/echo.v1.Echo/Hang", "/echo.v1.Echo/Get"])
    }

    @Test("entries come at the configured level, and none when it is nil or the logger drops it",
          arguments: [(Logger.Level?.some(.notice), Logger.Level.info, 1), (nil, .trace, 0), (.debug, .info, 0)])
    func level(accessLogLevel: Logger.Level?, loggerLevel: Logger.Level, expected: Int) async throws {
        var log = InMemoryLogHandler()
        log.logLevel = loggerLevel
        try await withTestServer(configure: { $0.accessLogLevel = accessLogLevel }, logger: log.logger) { server in
            let connection = try await server.connect()
            _ = try await RPCClient(transport: connection).unary(Echo.get, EchoRequest(text: "x"))
            await connection.close()
        }
        let entries = log.entries.filter { $0.message == "call" }
        #expect(entries.count == expected, "\(log.entries)")
        #expect(entries.allSatisfy { $0.level == accessLogLevel })
    }
}

extension InMemoryLogHandler {
    /// A logger writing to this handler.
    var logger: Logger {
        let handler = self
        return Logger(label: "test.server") { _ in handler }
    }

    /// The access log entries' metadata, values as text, in order.
    var calls: [[String: String]] {
        entries.filter { $0.message == "call" }.map { $0.metadata.mapValues { "\($0)" } }
    }
}
