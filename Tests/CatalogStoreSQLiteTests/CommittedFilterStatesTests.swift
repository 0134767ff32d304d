import CatalogAPI
import CatalogStore
import Foundation
import GRDB
import StoreTestSupport
import Testing

@testable import CatalogStoreSQLite

/// A filter write starts from the state kept at the last commit, not from a read: what is kept
/// must always be what SQLite holds, whatever transactions did in between.
@Suite("SQLite store: committed filter states")
struct CommittedFilterStatesTests {
    /// The state SQLite holds for `id`, read past the kept one.
    func stored(_ store: SQLiteCatalogStore, _ id: String) async throws -> FilterState? {
        try await store.database.read { db in try SQLiteCatalogStore.fetchFilter(db, id: id) }
    }

    @Test("after each kind of write the kept state is the stored one, or none")
    func keptIsStored() async throws {
        let store = try makeStore()
        _ = try await store.defineFilter(explicitFilter("f", options: 4))
        #expect(store.committedFilters.state(of: "f") == (try await stored(store, "f")))
        _ = try await store.updateFilter("f", .select(optionID: 2, toggle: false))
        _ = try await store.updateFilter("f", .togglePresentation)
        #expect(store.committedFilters.state(of: "f") == (try await stored(store, "f")))
        _ = try await store.createCategory(CategoryDraft(name: name("Books")))
        let builtin = FilterRules.builtinFilterID
        #expect(store.committedFilters.state(of: builtin) == (try await stored(store, builtin)))
        try await store.deleteFilter("f")
        #expect(store.committedFilters.state(of: "f") == nil)
        let again = try await store.defineFilter(explicitFilter("f", options: 2))
        #expect(again.revision == 4, "a filter defined again continues after its reserved revision")
        #expect(store.committedFilters.state(of: "f") == (try await stored(store, "f")))
    }

    @Test("a transaction reads back the state it wrote, and after its rollback the next write starts from the stored one")
    func rollback() async throws {
        let store = try makeStore()
        _ = try await store.defineFilter(explicitFilter("f", options: 4))
        let committed = try await store.updateFilter("f", .select(optionID: 1, toggle: false))
        #expect(store.committedFilters.state(of: "f") == committed)

        var change = committed
        change.revision += 1
        change.selectedId = 3
        let discarded = change
        let readBack = try await store.write(dryRun: true) { db in
            try store.appendFilterStep(db, discarded, FilterStep(to: discarded, edits: []), storingOptions: false)
            return try store.currentFilter(db, id: "f")
        }
        #expect(readBack == discarded)
        #expect(store.committedFilters.state(of: "f") == nil, "forgotten when written, not restored on rollback")
        let next = try await store.updateFilter("f", .togglePresentation)
        #expect(next.revision == committed.revision + 1)
        #expect(next.selectedId == 1)
        #expect(next == (try await stored(store, "f")))
        try await assertInvariants(store)
    }

    @Test("a dry run that would change a bound filter leaves it as committed")
    func dryRun() async throws {
        let store = try makeStore()
        let a = try await store.createCategory(CategoryDraft(name: name("A")))
        let builtin = FilterRules.builtinFilterID
        let before = try #require(try await stored(store, builtin))
        _ = try await store.mergeCategories(sourceIDs: [a.id], into: 1, dryRun: true)
        let after = try await store.updateFilter(builtin, .togglePresentation)
        #expect(after.revision == before.revision + 1)
        #expect(after.options == before.options)
        #expect(after == (try await stored(store, builtin)))
        try await assertInvariants(store)
    }
}
