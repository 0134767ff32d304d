import CatalogKit
import ChildProcess
import TestSupport
import Testing

/// `CatalogClient.connect(to:)`: several endpoints of one service. The replicas here are the
/// real server run in turn on one SQLite file (it has one writer at a time); a replica going
/// away is its graceful shutdown.
@Suite("Several endpoints: the first that answers, then the next when it goes away", .timeLimit(.minutes(1)))
struct ReplicaEndpointsTests {
    private static func local(_ port: Int) -> CatalogClient.Endpoint {
        CatalogClient.Endpoint(host: "127.0.0.1", port: port)
    }

    @Test("it connects to the first endpoint that answers, skipping those that do not")
    func firstThatAnswers() async throws {
        let database = try TestDatabase()
        let silent = try freeLoopbackPort()
        try await withCatalogServer(databasePath: database.path) { port in
            let client = try await CatalogClient.connect(to: [Self.local(silent), Self.local(port)])
            #expect(try await client.categories.list().count == 4)
            await client.close()
        }
    }

    @Test("when no endpoint answers, it is UNAVAILABLE, saying how many were tried")
    func noneAnswers() async throws {
        let endpoints = [Self.local(try freeLoopbackPort()), Self.local(try freeLoopbackPort())]
        let error = try await #require(throws: RPCError.self) { try await CatalogClient.connect(to: endpoints) }
        #expect(error.code == .unavailable)
        #expect(error.message.contains("none of 2 endpoints answered"), "\(error)")
    }

    @Test("no endpoint at all is INVALID_ARGUMENT")
    func noEndpoints() async throws {
        let error = try await #require(throws: RPCError.self) { try await CatalogClient.connect(to: []) }
        #expect(error.code == .invalidArgument)
    }

    @Test("when its replica goes away, calls move on to the next endpoint, and a watch resumes there after its last revision")
    func moveOn() async throws {
        let database = try TestDatabase()
        let (first, second) = (try freeLoopbackPort(), try freeLoopbackPort())
        let options = [FilterOption(id: 1, title: "Débutant"), FilterOption(id: 2, title: "Expert")]
        let (client, watch, books) = try await withCatalogServer(port: first, databasePath: database.path) { _ in
            let client = try await CatalogClient.connect(to: [Self.local(first), Self.local(second)], configuration: .quickReconnect)
            _ = try await client.filters.define("formations", title: "Niveaux", options: options)
            let watch = RecordedWatch(client, filterId: "formations", delivery: .everyChange)
            #expect(await watch.next()?.state?.revision == 1)
            for _ in 0..<5 { _ = try await client.filters.select("formations", optionId: 1, toggle: true) }
            try await watch.read(throughRevision: 6)
            return (client, watch, try await client.categories.create(name: "Books"))
        }
        try await withCatalogServer(port: second, databasePath: database.path) { _ in
            #expect(try await client.categories.get(id: books.id) == books, "a read moves on")
            for _ in 0..<3 { _ = try await client.filters.select("formations", optionId: 2, toggle: true) }
            try await watch.read(throughRevision: 9)
            #expect(watch.stateRevisions == Array(1...9), "no revision missed, none twice")
            #expect(watch.interruptions >= 1)
            #expect(watch.received.last?.state?.selectedId == 2)
            watch.cancel()
            await client.close()
        }
    }
}
