import CatalogKit
import CatalogTesting
import CatalogViewModels
import FormationsApp
import Testing

/// The formations screen against the catalog's real services in this process: no server.
@Suite("FormationsScreen")
@MainActor
struct FormationsScreenTests {
    @Test("shows the categories as chips and every formation while none is chosen")
    func start() async throws {
        let catalog = try await InProcessCatalog.start(seedDemo: true)
        let screen = FormationsScreen(catalog: catalog.client)
        let running = Task { await screen.run() }

        let all = try await catalog.client.items.list(pageSize: 50).items
        try await waitUntil("every formation is listed") { screen.items == .loaded(all) }
        #expect(screen.chips.connection == .live)
        #expect(screen.chips.options.map(\.id) == (try await catalog.client.categories.list()).map(\.id))
        #expect(screen.chips.selectedOptionId == nil)

        running.cancel()
        await running.value
        await catalog.close()
    }

    @Test("a tap on a chip chooses its category once the server answered, and the list follows; a second tap goes back to all")
    func tapChip() async throws {
        let catalog = try await InProcessCatalog.start(seedDemo: true)
        let screen = FormationsScreen(catalog: catalog.client)
        let running = Task { await screen.run() }
        try await waitUntil("the chips are live") { screen.chips.connection == .live }
        let data = try #require(screen.chips.options.first { $0.title == "Data" })

        await screen.tap(data.id)
        #expect(screen.chips.selectedOptionId == data.id)
        let dataItems = try await catalog.client.items.list(categoryId: data.id, pageSize: 50).items
        #expect(!dataItems.isEmpty)
        try await waitUntil("the Data formations are listed") { screen.items == .loaded(dataItems) }
        #expect(dataItems.allSatisfy { $0.categoryId == data.id })

        await screen.tap(data.id)
        #expect(screen.chips.selectedOptionId == nil)
        let all = try await catalog.client.items.list(pageSize: 50).items
        try await waitUntil("every formation is listed again") { screen.items == .loaded(all) }

        running.cancel()
        await running.value
        await catalog.close()
    }

    @Test("a category chosen in another app shows up, with its formations; an empty one shows the empty state")
    func choiceElsewhere() async throws {
        let catalog = try await InProcessCatalog.start(seedDemo: true)
        let screen = FormationsScreen(catalog: catalog.client)
        let running = Task { await screen.run() }
        try await waitUntil("the chips are live") { screen.chips.connection == .live }
        let other = catalog.newClient()

        let design = try #require(screen.chips.options.first { $0.title == "Design" })
        _ = try await other.filters.select("categories", optionId: design.id)
        let designItems = try await catalog.client.items.list(categoryId: design.id, pageSize: 50).items
        try await waitUntil("the Design formations are listed") {
            screen.chips.selectedOptionId == design.id && screen.items == .loaded(designItems)
        }

        let empty = try await other.categories.create(name: "Nouveautés")
        try await waitUntil("the new category is a chip") { screen.chips.options.contains { $0.id == empty.id } }
        _ = try await other.filters.select("categories", optionId: empty.id)
        try await waitUntil("the new category's empty list") { screen.items == .empty }

        running.cancel()
        await running.value
        await catalog.close()
    }
}
