import CatalogAPI
import CatalogStore
import Foundation
import GRDB
import StoreTestSupport
import Testing

@testable import CatalogStoreSQLite

@Suite("SQLite store: filter history")
struct FilterHistoryTests {
    @Test("the retained history survives a reopen, and revisions go on after it")
    func retentionAcrossReopen() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("catalog.sqlite").path
        let retained = StoredFilter.retainedChanges
        var returned: [FilterState] = []
        do {
            let store = try SQLiteCatalogStore(path: path)
            returned.append(try await store.defineFilter(explicitFilter("f", options: 5)))
            for step in 1..<1200 {
                returned.append(try await store.updateFilter("f", .select(optionID: Int64(1 + step % 2), toggle: true)))
            }
        }
        let store = try SQLiteCatalogStore(path: path)
        #expect(try await store.filterHistory(filterID: "f", limit: retained) == Array(returned.suffix(retained)))
        let next = try await store.updateFilter("f", .togglePresentation)
        #expect(next.revision == 1201)
        #expect(try await store.filterHistory(filterID: "f", limit: 2) == [returned[returned.count - 1], next])
        try await assertInvariants(store)
    }

    @Test("a change that keeps the options stores no edits; pruning keeps the last retained steps")
    func optionsStoredOnChange() async throws {
        let store = try makeStore()
        _ = try await store.defineFilter(explicitFilter("f", options: 50))
        let total = StoredFilter.retainedChanges + StoredFilter.pruneBatch + 10
        for _ in 1..<total {
            _ = try await store.updateFilter("f", .togglePresentation)
        }
        let withEdits = try await store.database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM filter_step WHERE filterId = 'f' AND edits IS NOT NULL")
        }
        // Pruned once, at the first multiple of the batch past `retained`, down to the last
        // `retained`: the first step, the one with edits, went.
        let batch = StoredFilter.pruneBatch
        let retained = StoredFilter.retainedChanges
        let prunedAt = (retained / batch + 1) * batch
        let oldest = try await store.filterHistory(filterID: "f", limit: .max).first?.revision
        #expect(oldest == Int64(prunedAt - retained + 1))
        #expect(withEdits == 0)
        let history = try await store.filterHistory(filterID: "f", limit: 2)
        #expect(history.allSatisfy { $0.options.count == 50 })
        try await assertInvariants(store)
    }
}
