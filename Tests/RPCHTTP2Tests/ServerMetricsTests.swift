import CoreMetrics
import MetricsTestKit
import RPCCore
import RPCHTTP2
import Testing

/// The server's swift-metrics, recorded into a `TestMetrics` factory bound to the test's task
/// while the server is made (the server keeps the factory it was made with).
@Suite("Server metrics through swift-metrics", .timeLimit(.minutes(1)))
struct ServerMetricsTests {
    static let unknown = UnaryMethod<EchoRequest, EchoResponse>(service: "no.such.Service", method: "Method")

    @Test("calls are counted by protocol: gRPC, Connect and gRPC-Web alike")
    func byProtocol() async throws {
        let metrics = TestMetrics()
        try await withMetricsFactory(metrics) {
            try await withTestServer { server in
                let port = server.port
                let connection = try await server.connect()
                _ = try await RPCClient(transport: connection).unary(Echo.get, EchoRequest(text: "grpc"))
                await connection.close()
                let answers = try await runBlocking {
                    try ["application/json", "application/grpc-web+json"].map { contentType in
                        let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(10))
                        defer { raw.close() }
                        let body = contentType == "application/json" ? Array(#"{"text":"c"}"#.utf8) : [0, 0, 0, 0, 12] + Array(#"{"text":"w"}"#.utf8)
                        let head = "POST /echo.v1.Echo/Get HTTP/1.1\r\nHost: a\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
                        try raw.sendRaw(Array(head.utf8) + body)
                        return String(decoding: try raw.readRawUntilClosed(), as: UTF8.self)
                    }
                }
                #expect(answers.allSatisfy { $0.hasPrefix("HTTP/1.1 200 OK") }, "\(answers)")
            }
        }
        let get = ("method", "/echo.v1.Echo/Get")
        for name in ["grpc", "connect", "grpc_web"] {
            #expect(metrics.counterTotal(label: "rpc_server_calls_total", dimensions: [get, ("status", "OK"), ("protocol", name)]) == 1, "\(name)")
        }
    }

    @Test("calls by method and status with a duration each, unknown paths as one method, refused connections by limit")
    func callsAndConnections() async throws {
        let metrics = TestMetrics()
        try await withMetricsFactory(metrics) {
            try await withTestServer(configure: { $0.maxConnectionsPerPeer = 1 }) { server in
                let connection = try await server.connect()
                let client = RPCClient(transport: connection)
                #expect(try await client.unary(Echo.get, EchoRequest(text: "ok")).text == "ok")
                _ = try? await client.unary(Echo.get, EchoRequest(text: "missing", status: StatusCode.notFound.rawValue))
                _ = try? await client.unary(Self.unknown, EchoRequest(text: "nowhere"))
                #expect(try metrics.expectMeter("rpc_server_connections").lastValue == 1)

                let refused = try await server.connect()
                _ = try? await RPCClient(transport: refused).unary(Echo.get, EchoRequest(text: "refused"))
                await refused.close()
                await connection.close()
            }
        }
        let get = ("method", "/echo.v1.Echo/Get")
        #expect(metrics.counterTotal(label: "rpc_server_calls_total", dimensions: [get, ("status", "OK")]) == 1)
        #expect(metrics.counterTotal(label: "rpc_server_calls_total", dimensions: [get, ("status", "NOT_FOUND")]) == 1)
        #expect(metrics.counterTotal(label: "rpc_server_calls_total", dimensions: [get, ("status", "RESOURCE_EXHAUSTED")]) == 1)
        #expect(
            metrics.counterTotal(label: "rpc_server_calls_total", dimensions: [("method", "unknown"), ("status", "UNIMPLEMENTED")])
                == 1)
        #expect(metrics.counters(label: "rpc_server_calls_total").count == 4, "no other series")
        let durations = try metrics.expectTimer("rpc_server_call_duration_seconds", [get])
        #expect(durations.values.count == 3)
        #expect(durations.values.allSatisfy { $0 > 0 })
        #expect(metrics.counterTotal(label: "rpc_server_connections_refused_total", dimensions: [("reason", "peer_limit")]) == 1)
        #expect(metrics.counterTotal(label: "rpc_server_connections_refused_total", dimensions: [("reason", "server_limit")]) == 0)
    }
}
