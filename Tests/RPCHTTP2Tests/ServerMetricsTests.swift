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
