import CatalogAPI
import CatalogStore
import Synchronization

/// The category name `text` with its slug, as the service hands a valid name to a store.
package func name(_ text: String) -> CategoryName {
    CategoryName(name: text, slug: CategoryRules.slug(for: text))
}

/// A filter with explicit options `1...count`, titled "Option n".
package func explicitFilter(_ id: String, title: String = "Filter", options count: Int = 3) -> FilterDefinition {
    FilterDefinition(
        filterID: id, title: title,
        content: .options((0..<Int64(count)).map { FilterOption(id: $0 + 1, title: "Option \($0 + 1)") }))
}

/// What a categories-bound filter's options must be: the categories in position order,
/// option id = category id, title = name, icon = icon.
package func mirroredOptions(_ categories: [Category]) -> [FilterOption] {
    categories.sorted { $0.position < $1.position }.map { FilterOption(id: $0.id, title: $0.name, icon: $0.icon) }
}

/// Records what a store tells its filter observer.
package final class FilterChangeRecorder: Sendable {
    private let recorded = Mutex<[FilterChange]>([])

    package init(_ store: any FilterStore) {
        store.observeFilterChanges { change in self.recorded.withLock { $0.append(change) } }
    }

    package var changes: [FilterChange] { recorded.withLock { $0 } }

    /// The states notified, in order.
    package var states: [FilterState] {
        changes.compactMap { if case .updated(let state) = $0 { state } else { nil } }
    }

    package func reset() { recorded.withLock { $0 = [] } }
}

extension CatalogError {
    /// `details.id` as an integer, when present.
    package var detailID: Int64? {
        if case .number(let value)? = rpcError.detail?.details?["id"] { return Int64(value) }
        return nil
    }
}
