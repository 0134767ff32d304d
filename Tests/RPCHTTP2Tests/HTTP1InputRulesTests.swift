import Foundation
import Testing

@testable import RPCHTTP2

/// Contract §1.1's HTTP/1.1 input rules over a real socket: each shape that could smuggle a
/// request, or that is over a limit, gets its status and the connection closes, while a
/// bystander on another connection is still served.
@Suite("HTTP/1.1 input rules")
struct HTTP1InputRulesTests {
    static let head = "POST /echo.v1.Echo/Quick HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"

    @Test("a request shaped to smuggle another, or over a limit, gets its status and its connection closes", arguments: [
        ("content-length with transfer-encoding", head + "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", "400"),
        ("two content-lengths", head + "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", "400"),
        ("obs-fold", head + "X-A: b\r\n c\r\nContent-Length: 2\r\n\r\n{}", "400"),
        ("a bare LF", head + "X-A: b\nContent-Length: 2\r\n\r\n{}", "400"),
        ("an unparsable chunk size", head + "Transfer-Encoding: chunked\r\n\r\nzz\r\n", "400"),
        ("a body announced over the message limit", head + "Content-Length: 99999999\r\n\r\n{}", "413"),
        ("a chunk declared over the message limit", head + "Transfer-Encoding: chunked\r\n\r\n7fffffff\r\n", "413"),
        ("a later chunk declared over the message limit", head + "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n7FFFFFFF;x=y\r\n", "413"),
        ("a header list over the limit", head + "X-Big: \(String(repeating: "a", count: 20_000))\r\nContent-Length: 2\r\n\r\n{}", "431"),
        ("a header list far over the limit", head + "X-Big: \(String(repeating: "a", count: 40_000))\r\nContent-Length: 2\r\n\r\n{}", "431"),
    ])
    func refused(shape: String, request: String, status: String) async throws {
        try await withTestServer { server in
            let port = server.port
            let answer = try await runBlocking {
                let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(10))
                defer { raw.close() }
                try raw.sendRaw(Array(request.utf8))
                return try raw.readRawUntilClosed()
            }
            let text = String(decoding: answer, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 \(status) "), "\(shape): \(text.prefix(200))")
            if status != "400" {
                #expect(text.contains(#""code":"resource_exhausted""#), "\(shape): a Connect error body: \(text.prefix(300))")
                #expect(!text.contains("grpc-status"), "\(shape)")
            }
            #expect(try await Self.bystanderServed(port: port), "\(shape)")
        }
    }

    @Test("a handler's metadata cannot set a response's framing fields: one content-length, the front end's, and the connection stays open",
          arguments: ["content-length", "connection", "transfer-encoding"])
    func framingFieldsFromMetadata(name: String) async throws {
        try await withTestServer { server in
            let port = server.port
            let answer = try await runBlocking {
                let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(10))
                defer { raw.close() }
                let body = #"{"text":"x"}"#
                let request = Self.head + "X-Echo: 999\r\nX-Echo-As: \(name)\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
                // Twice on one connection: the second is answered only if the first was framed right.
                try raw.sendRaw(Array((request + request.replacingOccurrences(of: "Host: a", with: "Host: a\r\nConnection: close")).utf8))
                return try raw.readRawUntilClosed()
            }
            let text = String(decoding: answer, as: UTF8.self)
            let responses = text.components(separatedBy: "HTTP/1.1 200 OK\r\n").dropFirst()
            #expect(responses.count == 2, "\(text)")
            for response in responses {
                let head = response.components(separatedBy: "\r\n\r\n")[0].lowercased()
                let lengths = head.split(separator: "\r\n").filter { $0.hasPrefix("content-length:") }
                #expect(lengths == ["content-length: 12"], "\(head)")
                #expect(!head.contains("999"), "\(head)")
                #expect(!head.contains("transfer-encoding"), "\(head)")
            }
        }
    }

    @Test("a request head that does not arrive in full within the timeout is dropped, and a bystander is served meanwhile")
    func headTimeout() async throws {
        try await withTestServer(configure: { $0.requestHeadTimeout = .milliseconds(300) }) { server in
            let port = server.port
            let started = ContinuousClock.now
            async let dropped = runBlocking {
                let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(10))
                defer { raw.close() }
                try raw.sendRaw(Array("POST /echo.v1.Echo/Quick HTTP/1.1\r\nHost: a\r\n".utf8))
                return try raw.readRawUntilClosed()
            }
            #expect(try await Self.bystanderServed(port: port))
            let droppedAnswer = try await dropped
            #expect(droppedAnswer.isEmpty, "dropped without an answer")
            #expect(ContinuousClock.now - started >= .milliseconds(300))
        }
    }

    @Test("pipelined requests are answered in order on one keep-alive connection")
    func pipelined() async throws {
        try await withTestServer { server in
            let port = server.port
            let answer = try await runBlocking {
                let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(10))
                defer { raw.close() }
                let requests = ["one", "two", "three"].map { text in
                    let body = #"{"text":"\#(text)"}"#
                    return Self.head + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
                }.joined() + "GET /echo.v1.Echo/Quick?encoding=json&message=%7B%22text%22%3A%22four%22%7D HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
                try raw.sendRaw(Array(requests.utf8))
                return try raw.readRawUntilClosed()
            }
            let text = String(decoding: answer, as: UTF8.self)
            let texts = text.components(separatedBy: #"{"text":""#).dropFirst().map { $0.prefix { $0 != "\"" } }
            #expect(texts == ["one", "two", "three", "four"], "\(text)")
            #expect(text.components(separatedBy: "HTTP/1.1 200 OK").count == 5)
        }
    }

    /// Whether a Connect call on a connection of its own is answered.
    static func bystanderServed(port: Int) async throws -> Bool {
        try await runBlocking {
            let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(10))
            defer { raw.close() }
            let body = #"{"text":"bystander"}"#
            try raw.sendRaw(Array((head + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body).utf8))
            let answer = String(decoding: try raw.readRawUntilClosed(), as: UTF8.self)
            return answer.hasPrefix("HTTP/1.1 200 OK") && answer.hasSuffix(#"{"text":"bystander"}"#)
        }
    }
}

/// Graceful shutdown over HTTP/1.1: the request in flight finishes, its response says
/// `connection: close`, then the connection closes; a call past the grace period is answered
/// UNAVAILABLE (503 over Connect).
@Suite("HTTP/1.1 graceful shutdown", .timeLimit(.minutes(1)))
struct HTTP1ShutdownTests {
    static func call(port: Int, _ body: String) async throws -> String {
        try await runBlocking {
            let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(20))
            defer { raw.close() }
            let request = HTTP1InputRulesTests.head.replacingOccurrences(of: "/Quick", with: "/Get")
                + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
            try raw.sendRaw(Array(request.utf8))
            return String(decoding: try raw.readRawUntilClosed(), as: UTF8.self)
        }
    }

    @Test("the request in flight finishes and is told the connection closes; then it closes")
    func inFlightFinishes() async throws {
        try await withTestServer(configure: { $0.shutdownGracePeriod = .seconds(30) }) { server in
            let port = server.port
            async let answer = Self.call(port: port, #"{"text":"drain","sleepMs":200}"#)
            _ = await server.probe.next { $0 == .started("drain") }
            server.server.beginGracefulShutdown()
            let text = try await answer
            #expect(text.hasPrefix("HTTP/1.1 200 OK"), "\(text)")
            #expect(text.lowercased().contains("connection: close\r\n"), "\(text)")
            #expect(text.hasSuffix(#"{"text":"drain"}"#))
        }
    }

    @Test("a call still running when the grace period ends is answered 503 unavailable")
    func graceEnds() async throws {
        try await withTestServer(configure: { $0.shutdownGracePeriod = .milliseconds(300) }) { server in
            let port = server.port
            async let answer = Self.call(port: port, #"{"text":"late","sleepMs":10000}"#)
            _ = await server.probe.next { $0 == .started("late") }
            server.server.beginGracefulShutdown()
            let text = try await answer
            #expect(text.hasPrefix("HTTP/1.1 503 "), "\(text)")
            #expect(text.contains(#""code":"unavailable""#), "\(text)")
        }
    }
}
