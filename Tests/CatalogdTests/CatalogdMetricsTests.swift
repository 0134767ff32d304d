import CatalogAPI
import CatalogKit
import CatalogdTestSupport
import ChildProcess
import Foundation
import RPCCore
import TestSupport
import Testing

/// `catalogd --metrics-address`: Prometheus text at `/metrics` on an admin port, counting calls
/// by method and status, their durations, open connections and Watch subscribers.
@Suite("catalogd metrics", .timeLimit(.minutes(2)))
struct CatalogdMetricsTests {
    /// The bucket bounds catalogd sets for call durations, in seconds.
    static let durationBounds = [
        0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, .infinity,
    ]

    @Test("calls by method and status, a duration histogram per method, and the connection and Watch gauges")
    func metricsAfterCalls() async throws {
        let metricsPort = try freeLoopbackPort()
        let catalogd = try await CatalogdProcess.start(extraArguments: ["--metrics-address", "127.0.0.1:\(metricsPort)"])
        defer { catalogd.kill() }
        #expect(catalogd.snapshot.stderr.contains("serving metrics on http://127.0.0.1:\(metricsPort)/metrics"))

        let before = try MetricsScrape.fetch(port: metricsPort)
        #expect(before.statusLine == "HTTP/1.1 200 OK")
        #expect(before.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        #expect(before.samples["rpc_server_connections"] == 0, "\(before.body)")
        #expect(before.samples["catalog_watch_subscribers"] == 0, "\(before.body)")

        let client = try await CatalogClient.connect(port: catalogd.port)
        #expect(try await client.categories.list().count == 4)
        #expect(try await client.categories.list().count == 4)
        let missing = try await #require(throws: RPCError.self) { try await client.categories.get(id: 999) }
        #expect(missing.code == .notFound)
        let (kinds, continuation) = AsyncStream<FilterEvent.Kind>.makeStream()
        let watching = Task {
            for try await event in client.filters.watch("categories") { continuation.yield(event.kind) }
        }
        var events = kinds.makeAsyncIterator()
        let first = await events.next()
        #expect(first == .snapshot)

        // Each count is recorded before the call's end is sent, so it is there once the client has it.
        let during = try MetricsScrape.fetch(port: metricsPort)
        let list = #"method="/catalog.v1.Categories/List""#
        #expect(during.samples[#"rpc_server_calls_total{\#(list),status="OK",protocol="grpc"}"#] == 2, "\(during.body)")
        #expect(
            during.samples[#"rpc_server_calls_total{method="/catalog.v1.Categories/Get",status="NOT_FOUND",protocol="grpc"}"#] == 1,
            "\(during.body)")
        #expect(during.samples[#"rpc_server_calls_total{method="/catalog.v1.Categories/Get",status="OK",protocol="grpc"}"#] == nil)
        let buckets = during.histogram("rpc_server_call_duration_seconds", list)
        #expect(buckets.map(\.le) == Self.durationBounds, "\(during.body)")
        #expect(buckets.map(\.count) == buckets.map(\.count).sorted(), "cumulative: \(buckets)")
        #expect(buckets.last?.count == 2)
        #expect(during.samples["rpc_server_call_duration_seconds_count{\(list)}"] == 2)
        #expect(during.samples["rpc_server_connections"] == 1, "\(during.body)")
        #expect(during.samples["rpc_server_streams"] == 1, "the Watch: \(during.body)")
        #expect(during.samples["catalog_watch_subscribers"] == 1, "\(during.body)")

        watching.cancel()
        _ = await watching.result
        // The server learns of the cancelled Watch from the client's RST_STREAM a moment later.
        let after = try await eventually("a scrape with no Watch subscriber") {
            let scrape = try MetricsScrape.fetch(port: metricsPort)
            return scrape.samples["catalog_watch_subscribers"] == 0 ? scrape : nil
        }
        #expect(after.samples[#"rpc_server_calls_total{method="/catalog.v1.Filters/Watch",status="CANCELLED",protocol="grpc"}"#] == 1,
                "\(after.body)")
        await client.close()
    }

    @Test("a connection that sends nothing is closed after --request-head-timeout-seconds, and counted by why")
    func silentConnectionClosed() async throws {
        let metricsPort = try freeLoopbackPort()
        let catalogd = try await CatalogdProcess.start(extraArguments: [
            "--metrics-address", "127.0.0.1:\(metricsPort)", "--request-head-timeout-seconds", "0.5",
        ])
        defer { catalogd.kill() }
        let start = ContinuousClock.now
        let answer = try HTTPGet.run(port: catalogd.port, request: "")
        let elapsed = ContinuousClock.now - start
        #expect(answer.isEmpty, "closed without an answer: \(answer)")
        #expect(elapsed >= .milliseconds(450) && elapsed < .seconds(5), "closed after \(elapsed)")
        let scrape = try MetricsScrape.fetch(port: metricsPort)
        #expect(scrape.samples[#"rpc_server_connections_closed_total{reason="head_timeout"}"#] == 1, "\(scrape.body)")
    }

    @Test("another path is 404, another method 405")
    func otherRequests() async throws {
        let metricsPort = try freeLoopbackPort()
        let catalogd = try await CatalogdProcess.start(extraArguments: ["--metrics-address", "127.0.0.1:\(metricsPort)"])
        defer { catalogd.kill() }
        #expect(try MetricsScrape.fetch(port: metricsPort, path: "/").statusLine == "HTTP/1.1 404 Not Found")
        let post = try HTTPGet.run(
            port: metricsPort, request: "POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        #expect(post.hasPrefix("HTTP/1.1 405 Method Not Allowed"), "\(post)")
    }

    @Test("CATALOG_METRICS_ADDRESS turns the endpoint on as the flag does")
    func environmentVariable() async throws {
        let (port, metricsPort) = (try freeLoopbackPort(), try freeLoopbackPort())
        let directory = try CatalogdProcess.makeDirectory()
        let catalogd = try CatalogdProcess(
            arguments: ["--address", "127.0.0.1:\(port)", "--database", directory.appendingPathComponent("catalog.sqlite").path],
            environment: ["CATALOG_METRICS_ADDRESS": "127.0.0.1:\(metricsPort)"], port: port, directory: directory)
        defer { catalogd.kill() }
        try await catalogd.waitUntilReady()
        let scrape = try MetricsScrape.fetch(port: metricsPort)
        #expect(scrape.samples["rpc_server_connections"] == 0, "\(scrape.body)")
    }
}
