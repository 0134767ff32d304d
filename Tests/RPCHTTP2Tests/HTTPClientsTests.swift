import ChildProcess
import Foundation
import TestCertificates
import Testing

@testable import RPCHTTP2

/// Clients that are not gRPC clients call the server on its gRPC port: Python's `http.client`
/// over HTTP/1.1 (Connect unary, GET, errors, streams, gRPC-Web binary and text, one keep-alive
/// connection for all), and `curl` over HTTP/1.1 and HTTP/2.
@Suite("HTTP clients: Connect and gRPC-Web on the gRPC port")
struct HTTPClientsTests {
    struct Report: Decodable {
        struct Unary: Decodable { let status: Int; let body: EchoResponse; let xEcho: String?; let length: String? }
        struct ErrorAnswer: Decodable {
            let status: Int; let code: String?; let message: String?; let type: String?; let reason: String?; let valueReason: String?
        }
        struct Get: Decodable { let status: Int; let body: EchoResponse }
        struct Unknown: Decodable { let status: Int; let code: String? }
        struct Stream: Decodable { let status: Int; let messages: [EchoResponse]; let end: [String: String]? }
        struct Web: Decodable { let status: Int; let message: EchoResponse?; let trailer: String? }
        let unary: Unary
        let error: ErrorAnswer
        let get: Get
        let unknown: Unknown
        let stream: Stream
        let grpcWeb: Web
        let grpcWebText: Web
    }

    @Test("Python's http.client calls every shape over HTTP/1.1 keep-alive and gets what gRPC would answer")
    func pythonHTTP1() async throws {
        try await withTestServer { server in
            let output = try await PythonProcess.output(ofScript: "http1_client.py", arguments: ["--port", "\(server.port)"])
            let report = try JSONDecoder().decode(Report.self, from: Data(output))
            #expect(report.unary.status == 200)
            #expect(report.unary.body == EchoResponse(text: "héllo"))
            #expect(report.unary.xEcho == "abc")
            #expect(report.unary.length != nil, "a unary answer has a content-length")

            #expect(report.error.status == 404)
            #expect(report.error.code == "not_found")
            #expect(report.error.message == "no item 42")
            #expect(report.error.type == "rpc.ErrorDetail")
            #expect(report.error.reason == "notFound")
            #expect(report.error.valueReason == "notFound")

            #expect(report.get.status == 200)
            #expect(report.get.body == EchoResponse(text: "by get"))
            #expect(report.unknown.status == 404)
            #expect(report.unknown.code == "unimplemented")

            #expect(report.stream.status == 200)
            #expect(report.stream.messages.map(\.index) == [0, 1, 2])
            #expect(report.stream.end == [:])

            #expect(report.grpcWeb.status == 200)
            #expect(report.grpcWeb.message == EchoResponse(text: "s"))
            #expect(report.grpcWeb.trailer == "grpc-status: 0\r\n")
            #expect(report.grpcWebText.message == EchoResponse(text: "s"))
            #expect(report.grpcWebText.trailer == "grpc-status: 0\r\n")
        }
    }

    @Test("httpx over HTTP/1.1 and HTTP/2: unary, GET, an error and a stream read as it arrives")
    func httpx() async throws {
        try await withTestServer { server in
            let output = try await PythonProcess.output(ofScript: "httpx_client.py", arguments: ["--port", "\(server.port)"])
            let report = try #require(try JSONSerialization.jsonObject(with: Data(output)) as? [String: [String: Any]])
            #expect(report["http1"]?["version"] as? String == "HTTP/1.1")
            #expect(report["http2"]?["version"] as? String == "HTTP/2")
            for (label, entry) in report {
                #expect((entry["unary"] as? [String: Any])?["text"] as? String == "x", "\(label)")
                #expect((entry["get"] as? [String: Any])?["text"] as? String == "g", "\(label)")
                #expect((entry["error"] as? [String: Any])?["status"] as? Int == 403, "\(label)")
                #expect((entry["error"] as? [String: Any])?["code"] as? String == "permission_denied", "\(label)")
                let stream = entry["stream"] as? [String: Any]
                #expect(stream?["indexes"] as? [Int] == [0, 1, 2, 3], "\(label)")
                #expect((stream?["end"] as? [String: Any])?.isEmpty == true, "\(label)")
            }
        }
    }

    @Test("curl's plain POST and GET work over HTTP/1.1 and HTTP/2", arguments: [[String](), ["--http2-prior-knowledge"]])
    func curl(options: [String]) async throws {
        try await withTestServer { server in
            let base = "http://127.0.0.1:\(server.port)"
            let post = try await Self.curl(options + ["-s", "-d", #"{"text":"c"}"#, "-H", "content-type: application/json", "\(base)/echo.v1.Echo/Get"])
            #expect(try JSONDecoder().decode(EchoResponse.self, from: post) == EchoResponse(text: "c"))
            let get = try await Self.curl(options + ["-s", "\(base)/echo.v1.Echo/Quick?encoding=json&message=%7B%22text%22%3A%22g%22%7D"])
            #expect(try JSONDecoder().decode(EchoResponse.self, from: get) == EchoResponse(text: "g"))
            let write = try await Self.curl(options + ["-s", "-o", "/dev/null", "-w", "%{http_code}", "\(base)/echo.v1.Echo/Get?encoding=json&message=%7B%7D"])
            #expect(String(decoding: write, as: UTF8.self) == "405", "a method not registered as a read refuses GET")
        }
    }

    @Test("over TLS, ALPN http/1.1 and h2 both serve Connect", arguments: ["--http1.1", "--http2"])
    func curlOverTLS(version: String) async throws {
        let pki = try TestPKI()
        let tls = try pki.serverTLS()
        try await withTestServer(configure: { $0.tls = tls }) { server in
            let output = try await Self.curl([
                version, "-s", "--cacert", pki.caFile, "-w", "\n%{http_version}", "-d", #"{"text":"tls"}"#, "-H", "content-type: application/json",
                "https://127.0.0.1:\(server.port)/echo.v1.Echo/Get",
            ])
            let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
            #expect(lines.first.map(String.init) == #"{"text":"tls"}"#, "\(lines)")
            #expect(lines.last.map(String.init) == (version == "--http1.1" ? "1.1" : "2"), "\(lines)")
        }
    }

    /// Runs curl to its end on a thread of its own (see `runBlocking`) and returns its stdout.
    static func curl(_ arguments: [String]) async throws -> Data {
        try await runBlocking { try runCurl(arguments) }
    }

    private static func runCurl(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["--max-time", "10"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }
}

/// CORS (contract §1.1): preflights and responses echo an allowed origin, never another.
@Suite("CORS for browsers on other origins")
struct CORSTests {
    static func exchange(port: Int, _ request: String) async throws -> String {
        try await runBlocking {
            let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(10))
            defer { raw.close() }
            try raw.sendRaw(Array(request.utf8))
            return String(decoding: try raw.readRawUntilClosed(), as: UTF8.self).lowercased()
        }
    }

    @Test("an allowed origin's preflight and call are answered with that origin, Vary and the exposed headers")
    func allowed() async throws {
        try await withTestServer(configure: { $0.corsOrigins = ["https://console.example"] }) { server in
            let preflight = try await Self.exchange(
                port: server.port,
                "OPTIONS /echo.v1.Echo/Get HTTP/1.1\r\nHost: a\r\nOrigin: https://console.example\r\n"
                    + "Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type\r\nConnection: close\r\n\r\n")
            #expect(preflight.hasPrefix("http/1.1 204"), "\(preflight)")
            #expect(preflight.contains("access-control-allow-origin: https://console.example\r\n"))
            #expect(preflight.contains("vary: origin\r\n"))
            #expect(preflight.contains("access-control-allow-methods: post, get\r\n"))
            #expect(preflight.contains("authorization"))
            let body = #"{"text":"c"}"#
            let call = try await Self.exchange(
                port: server.port,
                "POST /echo.v1.Echo/Get HTTP/1.1\r\nHost: a\r\nOrigin: https://console.example\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
            #expect(call.hasPrefix("http/1.1 200"), "\(call)")
            #expect(call.contains("access-control-allow-origin: https://console.example\r\n"))
            #expect(call.contains("access-control-expose-headers: grpc-status, grpc-message, error-detail-bin\r\n"))
        }
    }

    @Test("another origin gets no Access-Control-Allow-Origin; with CORS off, nobody does")
    func refused() async throws {
        for origins: Set<String> in [["https://console.example"], []] {
            try await withTestServer(configure: { $0.corsOrigins = origins }) { server in
                let body = #"{"text":"c"}"#
                let call = try await Self.exchange(
                    port: server.port,
                    "POST /echo.v1.Echo/Get HTTP/1.1\r\nHost: a\r\nOrigin: https://evil.example\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
                #expect(call.hasPrefix("http/1.1 200"), "\(call)")
                #expect(!call.contains("access-control-allow-origin"), "\(call)")
            }
        }
    }
}

/// The PyPI `connectrpc` client, a genuine third-party Connect and gRPC-Web client (with a
/// codec for JSON dictionaries), against the server.
@Suite("connectrpc (PyPI) calls the server over Connect and gRPC-Web")
struct ConnectRPCClientTests {
    struct Entry: Decodable {
        struct Failure: Decodable { let code: String?; let message: String? }
        struct StreamFailure: Decodable { let received: [Int]; let code: String?; let message: String? }
        let unary: EchoResponse
        let large: Int
        let get: EchoResponse?
        let error: Failure?
        let stream: [Int]
        let streamError: StreamFailure
    }

    @Test("unary, a large message, GET, errors, streams and an error after messages, as gRPC answers them")
    func connectrpc() async throws {
        try await withTestServer { server in
            let output = try await PythonProcess.output(ofScript: "connectrpc_client.py", arguments: ["--port", "\(server.port)"])
            let report = try JSONDecoder().decode([String: Entry].self, from: Data(output))
            for (label, entry) in report {
                #expect(entry.unary == EchoResponse(text: "héllo"), "\(label)")
                #expect(entry.large == 5000, "\(label)")
                #expect(entry.error?.code == "not_found", "\(label)")
                #expect(entry.error?.message == "no item 42", "\(label)")
                #expect(entry.stream == [0, 1, 2, 3, 4], "\(label)")
                #expect(entry.streamError.received == [0, 1, 2], "\(label)")
                #expect(entry.streamError.code == "failed_precondition", "\(label)")
                #expect(entry.streamError.message == "stop", "\(label)")
            }
            #expect(report["connect"]?.get == EchoResponse(text: "by get"))
            #expect(report.keys.sorted() == ["connect", "grpcWeb"])
        }
    }
}
