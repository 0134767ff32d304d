import CatalogKit
import ChildProcess
import TestSupport
import Testing

/// `CatalogClient(lazilyConnectingTo:)`: made while nothing listens, so that boot order does
/// not matter.
@Suite("Lazy connect")
struct LazyConnectTests {
    @Test("made while the server is down, a client fails its calls UNAVAILABLE, then serves once the server is up")
    func bootOrder() async throws {
        let port = try freeLoopbackPort()
        let database = try TestDatabase()
        let client = CatalogClient(lazilyConnectingTo: [CatalogClient.Endpoint(host: "127.0.0.1", port: port)], configuration: .quickReconnect)
        let offline = try await #require(throws: RPCError.self) { try await client.categories.list() }
        #expect(offline.code == .unavailable, "\(offline)")
        try await withCatalogServer(port: port, databasePath: database.path) { _ in
            #expect(try await client.categories.list().count == 4, "the first call after the server is up connects")
            let books = try await client.categories.create(name: "Books")
            #expect(try await client.categories.get(id: books.id).name == "Books")
        }
        await client.close()
        let closed = try await #require(throws: RPCError.self) { try await client.categories.list() }
        #expect(closed.code == .cancelled)
    }
}
