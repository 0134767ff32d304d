import CatalogKit
import CatalogTesting

// docs/client.md, "Testing code that calls the catalog".

func clientGuideTesting() async throws {
    let catalog = try await InProcessCatalog.start(seedDemo: true)
    let categories = try await catalog.client.categories.list()
    let other = catalog.newClient()  // a second app, seen by the first one's Watch
    _ = try await other.filters.select("categories", optionId: categories[0].id)
    await catalog.close()
}

// The examples in the `///` comments of InProcessCatalog.

func inProcessCatalogClass() async throws {
    let catalog = try await InProcessCatalog.start(seedDemo: true)
    let categories = try await catalog.client.categories.list()   // as the app code under test calls it
    await catalog.close()
    _ = categories
}

/// docs/client.md, "Fakes": a fake of the items beside the real other services.
struct CatalogWithFakeItems: CatalogClientProtocol {
    let items: FakeItems
    let real: CatalogClient
    var categories: CategoriesClient { real.categories }
    var filters: FiltersClient { real.filters }
    var health: HealthClient { real.health }
}

/// The fake the example names: every item call refused.
struct FakeItems: ItemsClientProtocol {
    func list(
        categoryId: Int64?, query: String?, level: String?, sort: ItemSort?, descending: Bool?,
        pageSize: Int?, pageToken: String?, options: CallOptions
    ) async throws -> ListItemsResponse {
        ListItemsResponse(items: [], totalCount: 0)
    }

    func get(id: Int64, options: CallOptions) async throws -> Item { throw RPCError(.notFound, "no item \(id)") }

    func create(
        title: String, summary: String?, level: String?, duration: String?, price: Money?,
        imageURL: String?, categoryId: Int64?, options: CallOptions
    ) async throws -> Item {
        throw RPCError(.permissionDenied, "a fake")
    }

    func update(
        id: Int64, title: String?, summary: FieldUpdate<String>, level: FieldUpdate<String>,
        duration: FieldUpdate<String>, price: FieldUpdate<Money>, imageURL: FieldUpdate<String>,
        categoryId: FieldUpdate<Int64>, options: CallOptions
    ) async throws -> Item {
        throw RPCError(.permissionDenied, "a fake")
    }

    func delete(id: Int64, options: CallOptions) async throws { throw RPCError(.permissionDenied, "a fake") }

    func `import`<Requests: AsyncSequence>(
        _ requests: Requests, options: CallOptions
    ) async throws -> ImportItemsResponse where Requests.Element == CreateItemRequest {
        throw RPCError(.permissionDenied, "a fake")
    }
}
