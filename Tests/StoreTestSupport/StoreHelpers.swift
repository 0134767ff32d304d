import CatalogAPI
import CatalogStore
import Synchronization
import Testing

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

/// A filter change as a test compares it: the state, without the step.
package enum RecordedChange: Sendable, Hashable {
    case updated(FilterState)
    case deleted(filterID: String)
}

/// Records what a store tells its filter observer, and checks each step told: applied to the
/// state told before it, it must give the state told with it.
package final class FilterChangeRecorder: Sendable {
    private struct Recorded {
        var changes: [RecordedChange] = []
        var last: [String: FilterState] = [:]
        var inconsistent: [String] = []
    }

    private let recorded = Mutex(Recorded())

    package init(_ store: any FilterStore) {
        store.observeFilterChanges { change in self.record(change) }
    }

    private func record(_ change: FilterChange) {
        recorded.withLock { recorded in
            switch change {
            case .updated(let state, let step):
                if step.revision != state.revision {
                    recorded.inconsistent.append("\(state.filterId)@\(state.revision): step for \(step.revision)")
                } else if let previous = recorded.last[state.filterId], previous.revision + 1 == state.revision,
                    step.applied(to: previous) != state
                {
                    recorded.inconsistent.append("\(state.filterId)@\(state.revision): the step does not lead from the state before")
                }
                recorded.last[state.filterId] = state
                recorded.changes.append(.updated(state))
            case .deleted(let filterID):
                recorded.last[filterID] = nil
                recorded.changes.append(.deleted(filterID: filterID))
            }
        }
    }

    /// The changes told, in order; checks that every step told so far was consistent.
    package var changes: [RecordedChange] {
        let (changes, inconsistent) = recorded.withLock { ($0.changes, $0.inconsistent) }
        #expect(inconsistent.isEmpty, "\(inconsistent)")
        return changes
    }

    /// The states notified, in order.
    package var states: [FilterState] {
        changes.compactMap { if case .updated(let state) = $0 { state } else { nil } }
    }

    package func reset() { recorded.withLock { $0 = Recorded() } }
}

extension CatalogError {
    /// `details.id` as an integer, when present.
    package var detailID: Int64? {
        if let id = rpcError.detail?.details?["id"]?.int64Value { return id }
        return nil
    }
}
