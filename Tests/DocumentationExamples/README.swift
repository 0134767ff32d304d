import CatalogKit

// README.md

/// "Call it from Swift".
func readmeQuickStart() async throws {
    let catalog = try await CatalogClient.connect(host: "127.0.0.1", port: 50051)
    let page = try await catalog.items.list(query: "swift", sort: .price, pageSize: 20)
    for item in page.items { print(item.id, item.title) }
    let books = try await catalog.categories.create(name: "Books", icon: "book")
    _ = try await catalog.filters.select("categories", optionId: books.id)
    await catalog.close()
}
