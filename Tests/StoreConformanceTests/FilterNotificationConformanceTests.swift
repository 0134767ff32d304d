import CatalogAPI
import CatalogStore
import Foundation
import StoreTestSupport
import Testing

@Suite("Stores: filter change notifications")
struct FilterNotificationConformanceTests {
    @Test("concurrent writers: every change is told once, before its write returns, in revision order per filter", arguments: StoreKind.allCases)
    func concurrentWriters(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let filterIDs = ["a", "b"]
            for id in filterIDs { _ = try await store.defineFilter(explicitFilter(id)) }
            let recorder = FilterChangeRecorder(store)
            let perTask = 50
            let returned = try await withThrowingTaskGroup(of: [FilterState].self) { group in
                for task in 0..<8 {
                    group.addTask {
                        var states: [FilterState] = []
                        for step in 0..<perTask {
                            // Each edit changes something whatever ran before: a toggle of either kind.
                            let filterID = filterIDs[(task + step) % filterIDs.count]
                            let edit: FilterEdit = step.isMultiple(of: 2) ? .togglePresentation : .select(optionID: 2, toggle: true)
                            let state = try await store.updateFilter(filterID, edit)
                            #expect(recorder.states.contains(state), "a write returned before its change was told")
                            states.append(state)
                        }
                        // Category writes interleave, changing the built-in filter.
                        if task < 3 {
                            _ = try await store.createCategory(CategoryDraft(name: name("Task \(task)")))
                        }
                        return states
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }

            let notified = recorder.states
            #expect(notified.count == 8 * perTask + 3)
            for id in filterIDs {
                let revisions = notified.filter { $0.filterId == id }.map(\.revision)
                #expect(revisions == Array(2...Int64(1 + revisions.count)), "filter \(id)")
                let written = returned.filter { $0.filterId == id }
                #expect(Set(written) == Set(notified.filter { $0.filterId == id }), "filter \(id)")
            }
            let builtin = notified.filter { $0.filterId == FilterRules.builtinFilterID }
            #expect(builtin.map(\.revision) == [2, 3, 4])
            #expect(builtin.last?.options.count == 7)
            for id in filterIDs + [FilterRules.builtinFilterID] {
                #expect(
                    try await store.filterHistory(filterID: id, limit: 1000).dropFirst()
                        == notified.filter { $0.filterId == id }[...])
            }
            try await assertInvariants(store)
        }
    }

    @Test("a later observer replaces the earlier one", arguments: StoreKind.allCases)
    func replacedObserver(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let first = FilterChangeRecorder(store)
            _ = try await store.defineFilter(explicitFilter("f"))
            let second = FilterChangeRecorder(store)
            try await store.deleteFilter("f")
            #expect(first.changes.count == 1)
            #expect(second.changes == [.deleted(filterID: "f")])
        }
    }
}
