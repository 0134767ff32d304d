@testable import catalogd
import Foundation
import NIOCore
import Prometheus
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The metrics endpoint closes connections that stay quiet and those past its limit, so they
/// cannot pile up on the admin port.
@Suite("Metrics endpoint: quiet and surplus connections", .timeLimit(.minutes(1)))
struct MetricsEndpointLimitsTests {
    /// Runs an endpoint on a free loopback port for `body`, then stops it.
    func withEndpoint(
        idleTimeout: TimeAmount, maxConnections: Int, _ body: @Sendable (Int) async throws -> Void
    ) async throws {
        let endpoint = MetricsEndpoint(
            registry: PrometheusCollectorRegistry(), address: try ListenAddress(parsing: "127.0.0.1:0"),
            idleTimeout: idleTimeout, maxConnections: maxConnections)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await endpoint.run() }
            let port = try #require(try await endpoint.listeningAddress.port)
            try await body(port)
            group.cancelAll()
        }
    }

    @Test("a connection that sends nothing is closed once quiet for the idle timeout")
    func quietConnection() async throws {
        try await withEndpoint(idleTimeout: .milliseconds(300), maxConnections: 8) { port throws in
            // Reads until the server closes the connection; throws after 10 s if it never does.
            #expect(try HTTPGet.run(port: port, request: "") == "")
            #expect(try scrape(port: port)?.hasPrefix("HTTP/1.1 200 OK") == true)
        }
    }

    /// A scrape's response; `nil` when the server closed the connection unanswered (an end of
    /// file, or a reset because the request was left unread).
    func scrape(port: Int) throws -> String? {
        do {
            let response = try HTTPGet.run(port: port, request: "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            return response.isEmpty ? nil : response
        } catch let failure as HTTPGet.Failure where failure.description.hasPrefix("recv: errno \(ECONNRESET) after 0 bytes") {
            return nil
        }
    }

    @Test("past the limit a new connection is closed unanswered; once one closes, scrapes are answered again")
    func connectionLimit() async throws {
        try await withEndpoint(idleTimeout: .seconds(60), maxConnections: 1) { port in
            let held = try HTTPGet.connect(port: port)
            // The held connection counts once the server has answered on it.
            let first = Array("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
            #expect(send(held, first, first.count, Int32(MSG_NOSIGNAL)) == first.count)
            var chunk = [UInt8](repeating: 0, count: 4096)
            #expect(recv(held, &chunk, chunk.count, 0) > 0)

            #expect(try scrape(port: port) == nil, "a second connection is one too many")
            close(held)
            // The server learns of the close on its own time: try until a scrape is answered.
            try await eventually("a scrape answered once the held connection closed") {
                try scrape(port: port)?.hasPrefix("HTTP/1.1 200 OK") == true
            }
        }
    }
}
