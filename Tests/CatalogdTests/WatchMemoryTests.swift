import CatalogAPI
import CatalogTestSupport
import CatalogdTestSupport
import Foundation
import RPCCore
import RPCHTTP2
import Testing

@Suite("catalogd's memory across Watch subscribe and cancel cycles")
struct WatchMemoryTests {
    @Test("10 000 more subscribe/cancel cycles leave the resident memory where the first 10 000 left it", .timeLimit(.minutes(5)))
    func cyclesReturnToBaseline() async throws {
        let catalogd = try await CatalogdProcess.start()
        defer { catalogd.kill() }
        // The first round warms up every pool and cache; the second must not add to it.
        try await Self.subscribeAndCancel(port: catalogd.port, cycles: 10_000)
        let baseline = try residentMemoryKiB(of: catalogd.processIdentifier)
        try await Self.subscribeAndCancel(port: catalogd.port, cycles: 10_000)
        let after = try residentMemoryKiB(of: catalogd.processIdentifier)
        // A subscriber costs about 5 KiB; 400 bytes a cycle would leak 4 MB over 10 000.
        #expect(after - baseline < 4_096, "resident memory grew from \(baseline) KiB to \(after) KiB")
    }

    /// Opens `cycles` Filters/Watch streams over 25 connections, each read to its snapshot
    /// and cancelled (400 per connection, within the RST_STREAM flood guard's burst).
    private static func subscribeAndCancel(port: Int, cycles: Int) async throws {
        let lanes = 25
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<lanes {
                let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port, configuration: .catalog)
                group.addTask {
                    let client = RPCClient(transport: connection)
                    for _ in 0..<cycles / lanes {
                        let stream = try await client.serverStreaming(FiltersService.watch, WatchFilterRequest(filterId: "categories"))
                        var events = stream.makeAsyncIterator()
                        #expect(try await events.next()?.kind == .snapshot)
                        stream.cancel()
                    }
                    await connection.close()
                }
            }
            try await group.waitForAll()
        }
    }
}
