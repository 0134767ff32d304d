import CatalogAPI
import CatalogStore
import StoreTestSupport
import Testing

@Suite("Stores: filter history retained for resume")
struct FilterHistoryConformanceTests {
    @Test("after 1200 changes the last 1024 are retained exactly as returned, options leaned on included", arguments: StoreKind.allCases)
    func retention(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            var returned = [try await store.defineFilter(explicitFilter("f", options: 5))]
            for step in 1..<1200 {
                // Mostly selections and presentation toggles (options unchanged), now and then new options.
                let state =
                    switch step % 97 {
                    case 0: try await store.defineFilter(explicitFilter("f", title: "Step \(step)", options: 2 + step % 5))
                    case 1...40: try await store.updateFilter("f", .togglePresentation)
                    default: try await store.updateFilter("f", .select(optionID: Int64(1 + step % 2), toggle: true))
                    }
                returned.append(state)
            }
            #expect(returned.map(\.revision) == Array(1...1200))
            let retained = StoredFilter.retainedChanges
            #expect(try await store.filterHistory(filterID: "f", limit: retained) == Array(returned.suffix(retained)))
            let all = try await store.filterHistory(filterID: "f", limit: .max)
            #expect(all.count >= retained && all.count < retained + StoredFilter.pruneBatch, "\(all.count)")
            #expect(all == Array(returned.suffix(all.count)))
            #expect(try await store.filterHistory(filterID: "f", limit: 3) == Array(returned.suffix(3)))
            #expect(try await store.filterHistory(filterID: "f", limit: 0).isEmpty)
            #expect(try await store.filterHistory(filterID: "unknown", limit: 10).isEmpty)
            try await assertInvariants(store)
        }
    }

    @Test("changes that each replace a thousand options are kept within the retained bytes, fewer than the count", arguments: StoreKind.allCases)
    func retainedBytes(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            // Two disjoint sets of a thousand options in turn: each Define removes one set and inserts the other.
            func definition(_ round: Int) -> FilterDefinition {
                let base = Int64(round % 2) * 1000
                let options = (1...1000).map { FilterOption(id: base + Int64($0), title: String(repeating: "x", count: 40) + " \(base + Int64($0))") }
                return FilterDefinition(filterID: "big", title: "Big", content: .options(options))
            }
            var returned: [FilterState] = []
            for round in 0..<(2 * StoredFilter.pruneBatch) { returned.append(try await store.defineFilter(definition(round))) }
            let steps = try await store.filterSteps(filterID: "big", after: 0)
            #expect(steps.last?.revision == Int64(2 * StoredFilter.pruneBatch))
            #expect(steps.count > 10 && steps.count < StoredFilter.pruneBatch, "\(steps.count) steps kept")
            #expect(steps.map(\.revision) == Array(steps[0].revision...Int64(2 * StoredFilter.pruneBatch)))
            let history = try await store.filterHistory(filterID: "big", limit: .max)
            #expect(history == Array(returned.suffix(history.count)))
            try await assertInvariants(store)
        }
    }
}
