import CatalogClient
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
