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
}
