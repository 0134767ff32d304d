import CatalogKit
import CatalogTesting
import ChildProcess
import TestSupport
import Testing

/// `CatalogClient.connectionStates`: what an app's offline banner follows.
@Suite("Connection state", .timeLimit(.minutes(1)))
struct ConnectionStateTests {
    @Test("a lazy client: idle, connecting, a failed attempt, ready once the server is up, idle when it goes away with no call made, shutdown")
    func lifecycle() async throws {
        let port = try freeLoopbackPort()
        let database = try TestDatabase()
        let client = CatalogClient(lazilyConnectingTo: [CatalogClient.Endpoint(host: "127.0.0.1", port: port)], configuration: .quickReconnect)
        var states = client.connectionStates.makeAsyncIterator()
        #expect(await states.next() == .idle)
        #expect(client.connectionState == .idle)

        let offline = try await #require(throws: RPCError.self) { try await client.categories.create(name: "Offline") }
        #expect(await states.next() == .connecting)
        let failed = await states.next()
        guard case .transientFailure(let error) = failed else {
            Issue.record("expected a transient failure, got \(String(describing: failed))")
            return
        }
        #expect(error.code == .unavailable && error == offline, "the state carries the attempt's error")

        try await withCatalogServer(port: port, databasePath: database.path) { _ in
            let categories = try await client.categories.list()
            #expect(categories.count == 4)
            #expect(await states.next() == .connecting)
            #expect(await states.next() == .ready)
            #expect(client.connectionState == .ready)
        }
        #expect(await states.next() == .idle, "the server's shutdown closed the connection")
        await client.close()
        #expect(await states.next() == .shutdown)
        #expect(await states.next() == nil, "the sequence ends with the client")
        var late = client.connectionStates.makeAsyncIterator()
        #expect(await late.next() == .shutdown)
        #expect(await late.next() == nil)
    }

    @Test("a connected client starts ready; a client over a given transport says ready and ends")
    func connectedAndGiven() async throws {
        let database = try TestDatabase()
        try await withCatalogServer(databasePath: database.path) { port in
            let client = try await CatalogClient.connect(port: port)
            var states = client.connectionStates.makeAsyncIterator()
            #expect(await states.next() == .ready)
            await client.close()
            #expect(await states.next() == .shutdown)
        }
        let catalog = try await InProcessCatalog.start()
        #expect(catalog.client.connectionState == .ready)
        var given = catalog.client.connectionStates.makeAsyncIterator()
        #expect(await given.next() == .ready)
        #expect(await given.next() == nil)
        await catalog.close()
    }
}
