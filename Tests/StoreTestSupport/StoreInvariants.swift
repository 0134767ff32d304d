import CatalogAPI
import CatalogStore
import Testing

/// A store as the services see it.
package typealias TestStore = any CatalogStore & FilterStore

/// Everything a store shows through its protocols: every category, every item (all pages),
/// every filter and its retained history.
package struct ObservableState: Equatable, Sendable {
    package var categories: [Category]
    package var items: [Item]
    package var filters: [FilterState]
    package var histories: [String: [FilterState]]

    package init(_ store: TestStore) async throws {
        categories = try await store.listCategories(CategoryQuery())
        items = []
        var token: String?
        repeat {
            let page = try await store.listItems(ItemQuery(pageSize: 500, pageToken: token))
            items += page.items
            token = page.nextPageToken
        } while token != nil
        filters = try await store.filters().sorted { $0.filterId < $1.filterId }
        histories = [:]
        for filter in filters {
            histories[filter.filterId] = try await store.filterHistory(filterID: filter.filterId, limit: .max)
        }
    }
}

/// Checks what the store shows: positions dense 0..n-1, slugs unique, every item's category
/// exists, every `itemCount` equal to the truth, the built-in filter present, every filter
/// bound to the categories mirroring them in position order, every selection one of its
/// filter's options, and every filter's history consecutive up to its current state.
package func assertInvariants(_ store: TestStore, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    assertInvariants(of: try await ObservableState(store), sourceLocation: sourceLocation)
}

/// Checks the invariants of `assertInvariants(_:)` on a state already read.
package func assertInvariants(of state: ObservableState, sourceLocation: SourceLocation = #_sourceLocation) {
    let categories = state.categories
    #expect(categories.map(\.position) == Array(0..<categories.count), "positions are not dense", sourceLocation: sourceLocation)
    #expect(Set(categories.map(\.slug)).count == categories.count, "slugs are not unique", sourceLocation: sourceLocation)
    let categoryIDs = Set(categories.map(\.id))
    let dangling = state.items.filter { $0.categoryId.map { !categoryIDs.contains($0) } ?? false }
    #expect(dangling.isEmpty, "items name missing categories: \(dangling.map(\.id))", sourceLocation: sourceLocation)
    for category in categories {
        let actual = state.items.filter { $0.categoryId == category.id }.count
        #expect(category.itemCount == actual, "category \(category.id) counts \(category.itemCount) items, holds \(actual)",
                sourceLocation: sourceLocation)
    }
    let mirrored = mirroredOptions(categories)
    #expect(state.filters.contains { $0.filterId == FilterRules.builtinFilterID }, sourceLocation: sourceLocation)
    for filter in state.filters {
        if filter.source == .categories {
            #expect(filter.options == mirrored, "filter '\(filter.filterId)' does not mirror the categories", sourceLocation: sourceLocation)
        }
        if let selected = filter.selectedId {
            #expect(filter.options.contains { $0.id == selected }, sourceLocation: sourceLocation)
        }
        let history = state.histories[filter.filterId] ?? []
        #expect(history.last == filter, "filter '\(filter.filterId)' history", sourceLocation: sourceLocation)
        #expect(
            history.map(\.revision) == Array((filter.revision - Int64(history.count) + 1)...filter.revision),
            "filter '\(filter.filterId)' history is not consecutive", sourceLocation: sourceLocation)
    }
}

/// Runs an operation that must fail with `reason`, and checks that `state`, read before and
/// after, did not change; returns the error.
@discardableResult
package func expectFailure<State: Equatable, T>(
    _ reason: String, unchanged state: () async throws -> State, sourceLocation: SourceLocation = #_sourceLocation,
    _ operation: () async throws(CatalogError) -> T
) async throws -> CatalogError? {
    let before = try await state()
    var failure: CatalogError?
    do {
        _ = try await operation()
        Issue.record("expected \(reason), the operation succeeded", sourceLocation: sourceLocation)
    } catch {
        failure = error
        #expect(error.reason == reason, "\(error)", sourceLocation: sourceLocation)
    }
    let after = try await state()
    #expect(before == after, "a failed operation changed the store", sourceLocation: sourceLocation)
    return failure
}

/// Runs an operation that must fail with `reason`, checks it changed nothing the store shows
/// and the invariants hold; returns the error.
@discardableResult
package func expectFailure<T>(
    _ store: TestStore, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ operation: () async throws(CatalogError) -> T
) async throws -> CatalogError? {
    let failure = try await expectFailure(
        reason, unchanged: { try await ObservableState(store) }, sourceLocation: sourceLocation, operation)
    try await assertInvariants(store, sourceLocation: sourceLocation)
    return failure
}

/// Runs a dry run: checks it changed nothing the store shows and the invariants hold; returns
/// its answer.
package func expectNoChange<T>(
    _ store: TestStore, sourceLocation: SourceLocation = #_sourceLocation,
    _ operation: () async throws(CatalogError) -> T
) async throws -> T {
    let before = try await ObservableState(store)
    let result = try await operation()
    let after = try await ObservableState(store)
    #expect(before == after, "a dry run changed the store", sourceLocation: sourceLocation)
    try await assertInvariants(store, sourceLocation: sourceLocation)
    return result
}
