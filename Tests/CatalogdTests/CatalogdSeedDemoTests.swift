import CatalogAPI
import CatalogTestSupport
import CatalogdTestSupport
import ChildProcess
import Foundation
import RPCCore
import RPCHTTP2
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `catalogd --seed-demo` (and `CATALOG_SEED_DEMO=1`): an empty store starts with a demo catalog, once.
@Suite("catalogd --seed-demo")
struct CatalogdSeedDemoTests {
    @Test("an empty database gets the demo catalog (item 42 included); a restart with --seed-demo adds nothing")
    func seedsOnceAcrossRestarts() async throws {
        let first = try await CatalogdProcess.start(extraArguments: ["--seed-demo"])
        defer { first.kill() }
        #expect(first.snapshot.stderr.contains("seeded the demo catalog"), "\(first.snapshot.stderr)")

        let seeded = try await DemoSnapshot.read(port: first.port)
        #expect(seeded.totalCount >= 48)
        #expect(!seeded.item42.title.isEmpty)
        #expect(seeded.item42.price?.currency == "EUR")
        #expect(seeded.item42.price.map { $0.amount.contains(".") } == true, "\(seeded.item42)")
        #expect(seeded.item42.level != nil && seeded.item42.duration != nil, "\(seeded.item42)")
        for name in ["IA Générative", "Développement", "Data", "Design", "Management"] {
            let category = seeded.categories.first { $0.name == name }
            #expect((category?.itemCount ?? 0) > 0, "category \(name): \(String(describing: category))")
        }

        first.send(SIGTERM)
        let firstExit = try await first.waitForExit()
        #expect(firstExit.status == 0 && !firstExit.killedBySignal, "\(firstExit)")

        // Same directory, same database, a new port.
        let port = try freeLoopbackPort()
        let second = try CatalogdProcess(
            arguments: [
                "--address", "127.0.0.1:\(port)", "--database", first.directory.appendingPathComponent("catalog.sqlite").path,
                "--seed-demo",
            ],
            port: port,
            directory: first.directory
        )
        defer { second.kill() }
        let ready = try await second.waitUntilReady()
        #expect(!ready.stderr.contains("seeded the demo catalog"), "\(ready.stderr)")

        let restarted = try await DemoSnapshot.read(port: port)
        #expect(restarted.totalCount == seeded.totalCount)
        #expect(restarted.item42 == seeded.item42)
        #expect(restarted.categories.map(\.id) == seeded.categories.map(\.id), "no category added or removed")

        second.send(SIGTERM)
        let secondExit = try await second.waitForExit()
        #expect(secondExit.status == 0 && !secondExit.killedBySignal, "\(secondExit)")
    }

    @Test("CATALOG_SEED_DEMO=1 seeds like --seed-demo; without either the catalog stays empty")
    func environmentAndDefault() async throws {
        let port = try freeLoopbackPort()
        let directory = try CatalogdProcess.makeDirectory()
        let seeded = try CatalogdProcess(
            arguments: ["--address", "127.0.0.1:\(port)", "--database", directory.appendingPathComponent("catalog.sqlite").path],
            environment: ["CATALOG_SEED_DEMO": "1"],
            port: port,
            directory: directory
        )
        defer { seeded.kill() }
        try await seeded.waitUntilReady()
        #expect(try await DemoSnapshot.read(port: port).totalCount >= 48)

        let plain = try await CatalogdProcess.start()
        defer { plain.kill() }
        let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: plain.port, configuration: .catalog)
        let rpc = RPCClient(transport: connection)
        #expect(try await rpc.unary(CatalogService.listItems, ListItemsRequest(pageSize: 1)).totalCount == 0)
        await connection.close()
    }
}

/// What a client sees of the demo catalog.
private struct DemoSnapshot {
    var totalCount: Int
    var item42: Item
    var categories: [CatalogAPI.Category]

    static func read(port: Int) async throws -> DemoSnapshot {
        let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port, configuration: .catalog)
        let rpc = RPCClient(transport: connection)
        do {
            let snapshot = DemoSnapshot(
                totalCount: try await rpc.unary(CatalogService.listItems, ListItemsRequest(pageSize: 1)).totalCount,
                item42: try await rpc.unary(CatalogService.getItem, IDRequest(id: 42)),
                categories: try await rpc.unary(CategoriesService.list, ListCategoriesRequest()).categories
            )
            await connection.close()
            return snapshot
        } catch {
            await connection.close()
            throw error
        }
    }
}
