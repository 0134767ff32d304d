import CatalogKit
import CatalogViewModels
import Observation

/// The formations screen: the categories as chips above the list of formations, which shows
/// the chosen category's (all formations when none is chosen).
///
/// The chips are the catalog's built-in `categories` filter, whose selection the server keeps:
/// choosing a chip here changes it for every app that shows the filter, and a choice made
/// elsewhere shows up here. Whichever way the selection changes, the list follows it.
///
/// In SwiftUI: `.task { await screen.run() }` on the screen's view, chips from
/// `screen.chips.options`, and `Task { await screen.tap(option.id) }` on a chip.
@MainActor
@Observable
public final class FormationsScreen {
    /// The categories as chips, their selection and whether they are collapsed.
    public let chips: FilterModel
    /// The formations listed.
    public private(set) var items: ItemsState = .loading

    /// The category whose formations ``items`` holds (`.some(nil)`: all), once a list was loaded.
    @ObservationIgnored private var listedCategoryId: Int64??
    @ObservationIgnored private let itemsClient: any ItemsClientProtocol
    @ObservationIgnored private let pageSize: Int

    /// The screen of a catalog.
    ///
    /// - Parameters:
    ///   - catalog: The catalog's client (or a fake of it).
    ///   - pageSize: How many formations are listed.
    public init(catalog: some CatalogClientProtocol, pageSize: Int = 50) {
        chips = FilterModel(filters: catalog.filters, filterId: "categories")
        itemsClient = catalog.items
        self.pageSize = pageSize
    }

    /// Runs the screen until its task is cancelled: follows the chips, and lists the formations
    /// of the chosen category each time the choice changes.
    public func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.chips.run() }
            group.addTask { await self.listSelectedCategory() }
        }
    }

    /// A tap on the chip of category `categoryId`: chooses it, or goes back to all the
    /// formations when it is the chosen one. The chips change once the server has answered.
    ///
    /// - Parameter categoryId: The category of the chip.
    public func tap(_ categoryId: Int64) async {
        await chips.select(chips.selectedOptionId == categoryId ? nil : categoryId)
    }

    /// Lists the chosen category's formations again, e.g. on pull to refresh.
    public func refresh() async {
        await list(categoryId: chips.selectedOptionId)
    }

    /// Lists the chosen category's formations, again each time the choice changes.
    private func listSelectedCategory() async {
        while !Task.isCancelled {
            let change = SelectionChange()
            let (known, selected) = withObservationTracking {
                (chips.revision != nil, chips.selectedOptionId)
            } onChange: {
                change.fire()
            }
            if known, listedCategoryId != .some(selected) {
                await list(categoryId: selected)
            } else {
                await change.wait()
            }
        }
    }

    private func list(categoryId: Int64?) async {
        if listedCategoryId != .some(categoryId) { items = .loading }
        do {
            let page = try await itemsClient.list(
                categoryId: categoryId, query: nil, level: nil, sort: nil, descending: nil, pageSize: pageSize, pageToken: nil,
                options: .defaults)
            items = page.items.isEmpty ? .empty : .loaded(page.items)
        } catch {
            items = .failed(error as? RPCError ?? RPCError(.unknown, String(describing: error)))
        }
        listedCategoryId = .some(categoryId)
    }
}
