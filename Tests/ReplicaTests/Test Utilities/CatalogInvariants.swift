import CatalogAPI
import CatalogKit
import Testing

/// Everything in the catalog, read through the API.
struct CatalogSnapshot {
    var categories: [Category]
    var items: [Item]
    var categoriesFilter: FilterState

    static func read(_ client: CatalogClient) async throws -> CatalogSnapshot {
        var items: [Item] = []
        var token: String?
        repeat {
            let page = try await client.items.list(pageSize: 500, pageToken: token)
            items += page.items
            token = page.nextPageToken
        } while token != nil
        return CatalogSnapshot(
            categories: try await client.categories.list(), items: items,
            categoriesFilter: try await client.filters.get("categories"))
    }
}

/// The contract's invariants over what `client` reads: dense positions, unique slugs, true
/// item counts, no item in a missing category, and the `categories` filter equal to the
/// categories in position order.
func expectInvariants(_ snapshot: CatalogSnapshot, sourceLocation: SourceLocation = #_sourceLocation) {
    let categories = snapshot.categories
    #expect(categories.map(\.position) == Array(0..<categories.count), "dense positions", sourceLocation: sourceLocation)
    #expect(Set(categories.map(\.slug)).count == categories.count, "unique slugs", sourceLocation: sourceLocation)
    var counts: [Int64: Int] = [:]
    for item in snapshot.items {
        if let category = item.categoryId { counts[category, default: 0] += 1 }
    }
    let ids = Set(categories.map(\.id))
    #expect(counts.keys.allSatisfy(ids.contains), "no item in a missing category", sourceLocation: sourceLocation)
    for category in categories {
        #expect(category.itemCount == counts[category.id, default: 0], "true count of \(category.name)", sourceLocation: sourceLocation)
    }
    let mirrored = categories.map { FilterOption(id: $0.id, title: $0.name, icon: $0.icon) }
    #expect(snapshot.categoriesFilter.options == mirrored, "the categories filter mirrors the categories", sourceLocation: sourceLocation)
}
