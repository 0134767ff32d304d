import CatalogKit
import CatalogTesting
import Foundation
import Synchronization
import Testing

/// App code written against the client protocols runs on a real `CatalogClient` and on fakes,
/// one service faked and the others real: what an app team's unit tests do.
@Suite("Client protocols for app code and its fakes")
struct ClientProtocolTests {
    @Test("app code over `some CatalogClientProtocol` runs on the real client and on a catalog with faked items")
    func realAndFake() async throws {
        let catalog = try await InProcessCatalog.start(seedDemo: true)
        let real = try await FormationList.load(from: catalog.client, category: "Design")
        let design = try #require(try await catalog.client.categories.list().first { $0.name == "Design" })
        let expected = try await catalog.client.items.list(categoryId: design.id, sort: .title, pageSize: 20).items.map(\.title)
        #expect(real.titles == expected && !expected.isEmpty)

        let fakeItems = FakeItems(titles: ["Faked one", "Faked two"])
        let mixed = MixedCatalog(items: fakeItems, real: catalog.client)
        let faked = try await FormationList.load(from: mixed, category: "Design")
        #expect(faked.titles == ["Faked one", "Faked two"])
        #expect(fakeItems.requests.withLock { $0 } == [design.id], "the fake saw the real category's id")
        await catalog.close()
    }

    @Test("each service client is usable as its protocol's existential, defaults included")
    func existentials() async throws {
        let catalog = try await InProcessCatalog.start(seedDemo: true)
        let whole: any CatalogClientProtocol = catalog.client
        let items: any ItemsClientProtocol = whole.items
        let categories: any CategoriesClientProtocol = whole.categories
        let filters: any FiltersClientProtocol = whole.filters
        #expect(try await items.list(pageSize: 3).items.count == 3)
        let created = try await categories.create(name: "Protocols")
        #expect(try await categories.get(id: created.id).name == "Protocols")
        let state = try await filters.select("categories", optionId: created.id)
        #expect(state.selectedId == created.id)
        var events = filters.watch("categories").makeAsyncIterator()
        #expect(try await events.next()?.state?.selectedId == created.id)
        #expect(try await whole.health.check() == .serving)
        let missing = try await #require(throws: RPCError.self) { try await items.get(id: 99_999) }
        #expect(missing.code == .notFound && missing.details["id"]?.int64Value == 99_999)
        await catalog.close()
    }
}

/// App code: the titles of a category's formations, as a view model would load them.
private struct FormationList {
    var titles: [String]

    static func load(from catalog: some CatalogClientProtocol, category name: String) async throws -> FormationList {
        guard let category = try await catalog.categories.list(query: name).first else { return FormationList(titles: []) }
        let page = try await catalog.items.list(categoryId: category.id, sort: .title, pageSize: 20)
        return FormationList(titles: page.items.map(\.title))
    }
}

/// Items faked, the other services real.
private struct MixedCatalog: CatalogClientProtocol {
    let items: FakeItems
    let real: CatalogClient
    var categories: CategoriesClient { real.categories }
    var filters: FiltersClient { real.filters }
    var health: HealthClient { real.health }
}

/// A fake of the items service: fixed titles, the category ids it was asked for.
private final class FakeItems: ItemsClientProtocol {
    let titles: [String]
    let requests = Mutex<[Int64?]>([])

    init(titles: [String]) { self.titles = titles }

    func list(
        categoryId: Int64?, query: String?, level: String?, sort: ItemSort?, descending: Bool?,
        pageSize: Int?, pageToken: String?, options: CallOptions
    ) async throws -> ListItemsResponse {
        requests.withLock { $0.append(categoryId) }
        let now = Date()
        let items = titles.enumerated().map { index, title in
            Item(id: Int64(index + 1), title: title, categoryId: categoryId, createdAt: now, updatedAt: now)
        }
        return ListItemsResponse(items: items, totalCount: items.count)
    }

    func get(id: Int64, options: CallOptions) async throws -> Item {
        throw RPCError(.notFound, "no item with id \(id)")
    }

    func create(
        title: String, summary: String?, level: String?, duration: String?, price: Money?,
        imageURL: String?, categoryId: Int64?, options: CallOptions
    ) async throws -> Item {
        throw RPCError(.permissionDenied, "read-only fake")
    }

    func update(
        id: Int64, title: String?, summary: FieldUpdate<String>, level: FieldUpdate<String>,
        duration: FieldUpdate<String>, price: FieldUpdate<Money>, imageURL: FieldUpdate<String>,
        categoryId: FieldUpdate<Int64>, options: CallOptions
    ) async throws -> Item {
        throw RPCError(.permissionDenied, "read-only fake")
    }

    func delete(id: Int64, options: CallOptions) async throws {
        throw RPCError(.permissionDenied, "read-only fake")
    }

    func `import`<Requests: AsyncSequence>(
        _ requests: Requests, options: CallOptions
    ) async throws -> ImportItemsResponse where Requests.Element == CreateItemRequest {
        throw RPCError(.permissionDenied, "read-only fake")
    }
}
