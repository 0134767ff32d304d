import CatalogKit
import CatalogdTestSupport
import RPCCore
import Testing

/// `--max-connections-per-peer` and `--max-call-rate` reach the server.
@Suite("catalogd connection and call rate limits", .timeLimit(.minutes(1)))
struct CatalogdLimitsTests {
    @Test("--max-connections-per-peer 1: a second connection's call is RESOURCE_EXHAUSTED naming the address")
    func connectionsPerPeer() async throws {
        let catalogd = try await CatalogdProcess.start(extraArguments: ["--max-connections-per-peer", "1"])
        defer { catalogd.kill() }
        let first = try await CatalogClient.connect(port: catalogd.port)
        #expect(try await first.health.check() == .serving)
        let second = try await CatalogClient.connect(port: catalogd.port)
        let refused = try await #require(throws: RPCError.self) { try await second.categories.list() }
        #expect(refused.code == .resourceExhausted)
        #expect(refused.message == "too many connections from 127.0.0.1 (limit 1)")
        #expect(refused.reason == "tooManyConnections")
        #expect(try await first.categories.list().count == 4, "the first connection is still served")
        await second.close()
        await first.close()
    }

    @Test("--max-call-rate 1,1: of two calls at once on one connection, one is RESOURCE_EXHAUSTED")
    func callRate() async throws {
        let catalogd = try await CatalogdProcess.start(extraArguments: ["--max-call-rate", "1,1"])
        defer { catalogd.kill() }
        let client = try await CatalogClient.connect(port: catalogd.port)
        let failures = await withTaskGroup(of: RPCError?.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    do {
                        _ = try await client.categories.list()
                        return nil
                    } catch {
                        return RPCError(mapping: error)
                    }
                }
            }
            return await group.compactMap { $0 }.reduce(into: [RPCError]()) { $0.append($1) }
        }
        #expect(failures.count == 1, "\(failures)")
        #expect(failures.first?.code == .resourceExhausted)
        #expect(failures.first?.reason == "callRateExceeded")
        await client.close()
    }
}
