import CatalogKit
import CatalogViewModels

// docs/client.md, "View models", and the examples in the `///` comments of CatalogViewModels.

/// What the example does with a refusal.
@MainActor
func showAlert(_ message: String) {}

/// docs/client.md, "View models": a filter's chips.
@MainActor
func clientGuideFilterModel(catalog: CatalogClient) async {
    let chips = FilterModel(filters: catalog.filters, filterId: "categories")
    let following = Task { await chips.run() }     // SwiftUI: .task { await chips.run() }
    await chips.select(chips.options.first?.id)    // shown once the server has answered
    if case .reconnecting = chips.connection { showAlert("reconnecting…") }
    following.cancel()
}

/// docs/client.md, "View models": the categories' screen.
@MainActor
func clientGuideCategoryListModel(catalog: CatalogClient) async {
    let list = CategoryListModel(categories: catalog.categories)
    await list.load()                              // .loading, then .loaded([…]), .empty or .failed(error)
    if await list.rename(id: 3, to: "Livres") == nil, let error = list.lastError {
        showAlert(error.message)                   // e.g. ABORTED revisionMismatch: reloaded
    }
}

/// The example in the `///` comment of FilterModel.
@MainActor
func filterModelClass(catalog: CatalogClient) async {
    let formations = FilterModel(filters: catalog.filters, filterId: "categories")
    let following = Task { await formations.run() }
    await formations.select(formations.options.first?.id)
    following.cancel()
}

/// The example in the `///` comment of CategoryListModel.
@MainActor
func categoryListModelClass(catalog: CatalogClient) async {
    let list = CategoryListModel(categories: catalog.categories)
    await list.load()
    if let books = await list.create(name: "Books", icon: "book") {
        await list.move(id: books.id, direction: .up)
    }
}
