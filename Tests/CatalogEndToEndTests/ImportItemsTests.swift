import CatalogAPI
import Foundation
import RPCCore
import TestSupport
import Testing

@Suite("Catalog: ImportItems over the wire")
struct ImportItemsTests {
    @Test("100 000 items in one stream: created in order with consecutive ids, at one revision")
    func hundredThousand() async throws {
        try await withCatalogServer { server async throws in
            let games = try await server.category(named: "Games")
            let before = try await server.call(CatalogService.listItems, ListItemsRequest(pageSize: 1)).revision
            let result = try await server.client.clientStreaming(CatalogService.importItems) { writer in
                for index in 0..<100_000 {
                    try await writer.write(CreateItemRequest(title: "Formation \(index)", categoryId: index.isMultiple(of: 10) ? games.id : nil))
                }
            }
            #expect(result.created == 100_000)
            #expect(result.revision == before + 1)
            let (first, last) = (try #require(result.firstId), try #require(result.lastId))
            #expect(last - first == 99_999)
            #expect(try await server.call(CatalogService.getItem, IDRequest(id: first + 54_321)).title == "Formation 54321")
            let listed = try await server.call(CatalogService.listItems, ListItemsRequest(pageSize: 3))
            #expect(listed.totalCount == 100_000)
            #expect(listed.revision == result.revision)
            #expect(listed.items.allSatisfy { $0.revision == result.revision })
            #expect(try await server.call(CategoriesService.get, IDRequest(id: games.id)).itemCount == 10_000)
        }
    }

    @Test("a refused item at index 99 999 refuses the import whole, naming the index")
    func refusedAtTheEnd() async throws {
        try await withCatalogServer { server async throws in
            let missing = await server.client.importFailure { writer in
                for index in 0..<100_000 { try await writer.write(CreateItemRequest(title: "Item \(index)", categoryId: index == 99_999 ? 404 : nil)) }
            }
            #expect(missing?.code == .notFound)
            #expect(missing?.detail?.details?["index"] == .integer(99_999))
            #expect(missing?.detail?.details?["id"] == .integer(404))

            let invalid = await server.client.importFailure { writer in
                for index in 0..<10 { try await writer.write(CreateItemRequest(title: index == 5 ? "  " : "Item \(index)")) }
            }
            #expect(invalid?.code == .invalidArgument)
            #expect(invalid?.detail?.field == "title")
            #expect(invalid?.detail?.details?["index"] == .integer(5))
            #expect(try await server.call(CatalogService.listItems, ListItemsRequest()).totalCount == 0, "nothing was created")
        }
    }

    @Test("a message that does not decode ends the import with INVALID_ARGUMENT naming its field and index")
    func undecodable() async throws {
        try await withCatalogServer { server async throws in
            let call = try await server.connection.openCall(CatalogService.importItems.descriptor, options: .defaults)
            try await call.send(Array(#"{"title": "fine"}"#.utf8), endOfStream: false)
            try await call.send(Array(#"{"title": 42}"#.utf8), endOfStream: true)
            let error = try await #require(throws: RPCError.self) { _ = try await call.receive() }
            #expect(error.code == .invalidArgument)
            #expect(error.detail?.field == "title", "\(error)")
            #expect(error.detail?.details?["index"] == .integer(1))
        }
    }

    @Test("no messages: {created: 0}, nothing written")
    func empty() async throws {
        try await withCatalogServer { server async throws in
            let before = try await server.call(CatalogService.listItems, ListItemsRequest()).revision
            let none = try await server.client.clientStreaming(CatalogService.importItems) { _ in }
            #expect(none == ImportItemsResponse(created: 0, revision: before))
            #expect(try await server.call(CatalogService.listItems, ListItemsRequest()).totalCount == 0)
        }
    }

    @Test("a client that cancels mid-stream leaves nothing")
    func cancelledMidStream() async throws {
        try await withCatalogServer { server async throws in
            let (sent, sentContinuation) = AsyncStream.makeStream(of: Int.self)
            let upload = Task {
                try await server.client.clientStreaming(CatalogService.importItems) { writer in
                    for index in 0... {
                        try await writer.write(CreateItemRequest(title: "Item \(index)"))
                        if index == 1_000 { sentContinuation.yield(index) }
                    }
                }
            }
            for await _ in sent { break }
            upload.cancel()
            _ = await upload.result
            // The next import takes the revision after the one before the cancelled one.
            let next = try await server.client.clientStreaming(CatalogService.importItems, [CreateItemRequest(title: "Next")].streamed)
            #expect(next.created == 1)
            #expect(try await server.call(CatalogService.listItems, ListItemsRequest()).totalCount == 1)
        }
    }
}

extension RPCClient {
    /// The `RPCError` an import of what `requests` writes fails with; `nil` when it succeeds.
    fileprivate func importFailure(_ requests: (RequestWriter<CreateItemRequest>) async throws -> Void) async -> RPCError? {
        do {
            _ = try await clientStreaming(CatalogService.importItems, requests: requests)
            Issue.record("the import succeeded")
            return nil
        } catch {
            return error as? RPCError
        }
    }
}
