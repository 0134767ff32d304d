import CatalogAPI
import Foundation
import RPCCore
import RPCHTTP2
import Testing

@Suite("Concurrent reads on every event loop", .timeLimit(.minutes(2)))
struct ConcurrentReadTests {
    /// GetItem reads on its event loop's thread while ListItems reads on GRDB's pool and then
    /// resumes on its event loop. Both event loops blocked waiting for a pooled reader that
    /// tasks held while waiting for those event loops was a deadlock; the store's point reads
    /// now have a connection of their own.
    @Test("thousands of point reads and scans at once all answer")
    func pointReadsAndScansTogether() async throws {
        try await withCatalogServer { server in
            let family = try await server.category(named: "Family")
            let items = try await server.createItems(20, in: family.id)
            var connections: [HTTP2ClientConnection] = []
            for _ in 0..<4 { connections.append(try await server.connect()) }
            let answered = try await withThrowingTaskGroup(of: Int.self) { group in
                for (lane, connection) in connections.enumerated() {
                    let client = RPCClient(transport: connection)
                    for index in 0..<400 {
                        group.addTask {
                            if (index + lane) % 2 == 0 {
                                let item = try await client.unary(CatalogService.getItem, IDRequest(id: items[index % items.count].id))
                                return item.id == items[index % items.count].id ? 1 : 0
                            }
                            let page = try await client.unary(CatalogService.listItems, ListItemsRequest(query: "item", pageSize: 5))
                            return page.items.isEmpty ? 0 : 1
                        }
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(answered == 4 * 400)
            for connection in connections { await connection.close() }
        }
    }
}
