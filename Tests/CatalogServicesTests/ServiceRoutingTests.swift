import CatalogAPI
import CatalogServices
import CatalogStore
import RPCCore
import Testing

@Suite("Catalog services through the router", .timeLimit(.minutes(1)))
struct ServiceRoutingTests {
    let store = RecordingStore()

    /// A router serving both catalog services from `store`.
    static func router(_ store: any CatalogStore) -> Router {
        var router = Router()
        router.register(CategoriesRPCService(store: store))
        router.register(CatalogRPCService(store: store))
        return router
    }

    /// Runs one JSON request through a router serving both catalog services.
    func call(_ path: String, _ json: String, store: RecordingStore? = nil) async throws -> OneCallStream.Finished {
        let route = try #require(Self.router(store ?? self.store).route(for: path))
        let stream = OneCallStream(path: path, json: json)
        await route.run(stream)
        let finished = stream.finished
        try #require(finished.count == 1)
        return finished[0]
    }

    @Test("point reads run inline, with no task for a store that answers them at once, and answer what it read",
          arguments: [false, true])
    func pointReads(immediate: Bool) async throws {
        let store = immediate ? ImmediateRecordingStore() : RecordingStore()
        let router = Self.router(store)
        for path in ["/catalog.v1.Catalog/GetItem", "/catalog.v1.Categories/Get"] {
            let route = try #require(router.route(for: path))
            #expect(route.policy == .inline, "\(path)")
            #expect(route.answersImmediately == immediate, "\(path)")
        }
        let item = try await call("/catalog.v1.Catalog/GetItem", #"{"id": 5}"#, store: store)
        #expect(try JSONCodec.shared.decode(Item.self, from: #require(item.lastMessage)) == RecordingStore.item)
        let category = try await call("/catalog.v1.Categories/Get", #"{"id": 6}"#, store: store)
        #expect(try JSONCodec.shared.decode(Category.self, from: #require(category.lastMessage)) == RecordingStore.category)
        #expect(store.calls == [.item(id: 5), .category(id: 6)])
    }

    @Test("filter updates run inline, whatever the store, and answer what it said")
    func filterUpdates() async throws {
        var router = Router()
        router.register(FiltersRPCService(store: store, hub: FilterHub()))
        let updates = [
            ("/catalog.v1.Filters/Select", #"{"filterId": "sizes", "optionId": 2}"#),
            ("/catalog.v1.Filters/SetPresentation", #"{"filterId": "sizes", "presentation": "collapsed"}"#),
            ("/catalog.v1.Filters/TogglePresentation", #"{"filterId": "sizes"}"#),
        ]
        for (path, json) in updates {
            let route = try #require(router.route(for: path))
            #expect(route.policy == .inline, "\(path)")
            let stream = OneCallStream(path: path, json: json)
            await route.run(stream)
            #expect(stream.finished.map(\.trailers.detail?.reason) == ["unknownFilter"], "\(path)")
        }
    }

    @Test("an invalid field ends the call with INVALID_ARGUMENT naming it, before the store")
    func invalidFieldStatus() async throws {
        let finished = try await call("/catalog.v1.Categories/Create", ##"{"name": "Cars", "color": "#12345G"}"##)
        #expect(finished.trailers.code == .invalidArgument)
        #expect(finished.trailers.detail?.reason == "invalidField")
        #expect(finished.trailers.detail?.field == "color")
        #expect(finished.lastMessage == nil)
        #expect(store.calls.isEmpty)
    }

    @Test("Delete with items move and no moveTo ends with moveToRequired")
    func moveToRequiredStatus() async throws {
        let finished = try await call("/catalog.v1.Categories/Delete", #"{"id": 3, "items": "move"}"#)
        #expect(finished.trailers.code == .invalidArgument)
        #expect(finished.trailers.detail?.reason == "moveToRequired")
        #expect(store.calls.isEmpty)
    }

    @Test("a page size outside 1 to 500 ends with INVALID_ARGUMENT on pageSize")
    func pageSizeStatus() async throws {
        let finished = try await call("/catalog.v1.Catalog/ListItems", #"{"pageSize": 501}"#)
        #expect(finished.trailers.code == .invalidArgument)
        #expect(finished.trailers.detail?.field == "pageSize")
        #expect(store.calls.isEmpty)
    }

    @Test("a valid call answers the encoded response")
    func paletteResponse() async throws {
        let finished = try await call("/catalog.v1.Categories/Palette", "{}")
        #expect(finished.trailers.code == .ok)
        let message = try #require(finished.lastMessage)
        #expect(try JSONCodec.shared.decode(Palette.self, from: message).colors == CategoryPalette.palette)
    }

    @Test("UpdateItem tells a null categoryId from an absent one on the wire")
    func nullCategoryID() async throws {
        _ = try await call("/catalog.v1.Catalog/UpdateItem", #"{"id": 17, "categoryId": null}"#)
        _ = try await call("/catalog.v1.Catalog/UpdateItem", #"{"id": 17}"#)
        _ = try await call("/catalog.v1.Catalog/UpdateItem", #"{"id": 17, "summary": null, "price": null, "level": "Avancé"}"#)
        #expect(
            store.calls == [
                .updateItem(id: 17, ItemChanges(categoryID: .clear)),
                .updateItem(id: 17, ItemChanges()),
                .updateItem(id: 17, ItemChanges(summary: .clear, level: .set("Avancé"), price: .clear)),
            ])
    }
}
