import CatalogAPI
import CatalogKit
import TestSupport
import Testing

@Suite("One connection, reconnected after the server restarts; graceful close")
struct ReconnectTests {
    @Test("after the server restarts on the same port, the next call reconnects and sees the same data")
    func reconnectAfterRestart() async throws {
        let database = try TestDatabase()
        let (client, port, books) = try await withCatalogServer(databasePath: database.path) { port in
            let client = try await CatalogClient.connect(port: port, configuration: .quickReconnect)
            let books = try await client.categories.create(name: "Books")
            return (client, port, books)
        }
        // Down: reads fail with UNAVAILABLE once their attempts are spent.
        let down = try await #require(throws: RPCError.self) { try await client.categories.get(id: books.id) }
        #expect(down.code == .unavailable)
        // A write while down fails without being sent anywhere.
        let write = try await #require(throws: RPCError.self) { try await client.categories.create(name: "Lost") }
        #expect(write.code == .unavailable)

        try await withCatalogServer(port: port, databasePath: database.path) { _ in
            // The read's retries outlast the reconnect backoff the failed calls above started.
            let fetched = try await client.categories.get(id: books.id)
            #expect(fetched == books)
            #expect(try await client.categories.create(name: "Found").name == "Found", "writes work again too")
            #expect(try await client.categories.list().contains { $0.name == "Lost" } == false)
            await client.close()
        }
    }

    @Test("twenty concurrent calls right after a restart all reconnect and succeed")
    func concurrentCallsAfterRestart() async throws {
        let database = try TestDatabase()
        let (client, port) = try await withCatalogServer(databasePath: database.path) { port in
            (try await CatalogClient.connect(port: port, configuration: .quickReconnect), port)
        }
        try await withCatalogServer(port: port, databasePath: database.path) { _ in
            let names = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 { group.addTask { try await client.categories.list().count } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(names == Array(repeating: 4, count: 20))
            await client.close()
        }
    }

    @Test("close lets an in-flight call finish, and later calls fail with CANCELLED")
    func gracefulClose() async throws {
        try await withProbeServer { port, probe in
            let client = try await CatalogClient.connect(port: port)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    let error = try await #require(throws: RPCError.self) {
                        try await client.health.check(service: "sleep", options: .timeout(.seconds(3)))
                    }
                    // The call ran to its own end (its deadline), not cut short by close().
                    #expect(error.code == .deadlineExceeded)
                }
                try await eventually { probe.calls(Health.check) == 1 }
                await client.close()
                try await group.waitForAll()
            }
            let error = try await #require(throws: RPCError.self) { try await client.health.check() }
            #expect(error.code == .cancelled)
            #expect(probe.calls(Health.check) == 1, "nothing was sent after close")
        }
    }
}
