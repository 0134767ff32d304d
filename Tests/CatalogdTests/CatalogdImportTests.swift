import CatalogAPI
import CatalogdTestSupport
import ChildProcess
import Foundation
import RPCCore
import RPCHTTP2
import TestSupport
import Testing

@Suite("catalogd: ImportItems from a client that vanishes")
struct CatalogdImportTests {
    @Test("a client killed mid-import leaves nothing, and the server imports for others", .timeLimit(.minutes(3)))
    func killedMidStream() async throws {
        let catalogd = try await CatalogdProcess.start()
        defer { catalogd.kill() }
        let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: catalogd.port, configuration: .catalog)
        let client = RPCClient(transport: connection)
        let before = try await client.unary(CatalogService.listItems, ListItemsRequest())

        let directory = try #require(Bundle.module.url(forResource: "Python", withExtension: nil))
        let vanishing = try PythonProcess(
            scriptURL: directory.appendingPathComponent("vanishing_import.py"), arguments: ["--target", "127.0.0.1:\(catalogd.port)"])
        let line = try await vanishing.readLine(timeout: .seconds(60))
        try #require(line == "importing", "\(vanishing.standardError)")
        await vanishing.stop()

        // Another import goes through once the vanished one is dropped (the store's writer is free).
        let requests = (0..<10).map { CreateItemRequest(title: "After \($0)") }
        let after = try await client.clientStreaming(CatalogService.importItems, requests.streamed)
        #expect(after.created == 10)
        #expect(after.revision == before.revision + 1, "the vanished import took no revision")
        let listed = try await client.unary(CatalogService.listItems, ListItemsRequest(pageSize: 500))
        #expect(listed.totalCount == 10, "nothing of the vanished import")
        #expect(listed.items.allSatisfy { $0.title.hasPrefix("After") })
        #expect(try await client.unary(CategoriesService.get, IDRequest(id: 1)).itemCount == 0)
        await connection.close()
    }
}
