import CatalogAPI
import CatalogStore
import Foundation
import StoreTestSupport
import Testing

@Suite("Stores: filters")
struct FilterStoreConformanceTests {
    @Test("a fresh store holds the built-in categories filter mirroring the default categories", arguments: StoreKind.allCases)
    func freshStore(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let filters = try await store.filters()
            #expect(filters.count == 1)
            let builtin = try #require(filters.first)
            #expect(builtin.filterId == FilterRules.builtinFilterID)
            #expect(builtin.title == FilterRules.builtinFilterTitle)
            #expect(builtin.source == .categories)
            #expect(
                builtin.options == [
                    FilterOption(id: 1, title: "Family", icon: "house"), FilterOption(id: 2, title: "Cars", icon: "car"),
                    FilterOption(id: 3, title: "Games", icon: "gamecontroller"),
                    FilterOption(id: 4, title: "Sports", icon: "sportscourt"),
                ])
            #expect(builtin.selectedId == nil)
            #expect(builtin.presentation == .expanded)
            #expect(builtin.revision == 1)
            #expect(abs(builtin.updatedAt.timeIntervalSinceNow) < 60)
            #expect(try await store.filterHistory(filterID: FilterRules.builtinFilterID, limit: 10) == [builtin])
            try await assertInvariants(store)
        }
    }

    @Test("define creates at revision 1, bumps by exactly 1 per change and not at all for the same content", arguments: StoreKind.allCases)
    func define(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let recorder = FilterChangeRecorder(store)
            let created = try await store.defineFilter(explicitFilter("level", title: "Level"))
            #expect(created.revision == 1)
            #expect(created.title == "Level")
            #expect(created.options.map(\.id) == [1, 2, 3])
            #expect(created.selectedId == nil && created.presentation == .expanded && created.source == nil)
            #expect(recorder.changes == [.updated(created)])
            #expect(try await store.filters().map(\.filterId) == ["categories", "level"])
            #expect(try await store.filters().last == created)

            let before = try await ObservableState(store)
            let same = try await store.defineFilter(explicitFilter("level", title: "Level"))
            #expect(same == created)
            #expect(try await ObservableState(store) == before)
            #expect(recorder.changes.count == 1)

            let retitled = try await store.defineFilter(explicitFilter("level", title: "Niveau"))
            #expect(retitled.revision == 2 && retitled.title == "Niveau")
            let widened = try await store.defineFilter(explicitFilter("level", title: "Niveau", options: 4))
            #expect(widened.revision == 3 && widened.options.count == 4)
            let selected = try await store.updateFilter("level", .select(optionID: 4, toggle: false))
            #expect(selected.revision == 4 && selected.selectedId == 4)
            // The selected option disappears: cleared in the same revision as the new options.
            let narrowed = try await store.defineFilter(explicitFilter("level", title: "Niveau", options: 2))
            #expect(narrowed.revision == 5 && narrowed.selectedId == nil && narrowed.options.count == 2)
            // A selection that stays is kept.
            _ = try await store.updateFilter("level", .select(optionID: 1, toggle: false))
            let kept = try await store.defineFilter(explicitFilter("level", title: "Level", options: 2))
            #expect(kept.revision == 7 && kept.selectedId == 1)

            #expect(recorder.states.map(\.revision) == [1, 2, 3, 4, 5, 6, 7])
            #expect(try await store.filterHistory(filterID: "level", limit: 100) == recorder.states)
            try await assertInvariants(store)
        }
    }

    @Test("define converts between explicit options and the categories source", arguments: StoreKind.allCases)
    func sourceConversion(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let categories = try await store.listCategories(CategoryQuery())
            let explicit = try await store.defineFilter(explicitFilter("f"))
            let bound = try await store.defineFilter(FilterDefinition(filterID: "f", title: "Filter", content: .source(.categories)))
            #expect(bound.revision == explicit.revision + 1)
            #expect(bound.source == .categories)
            #expect(bound.options == mirroredOptions(categories))
            let again = try await store.defineFilter(FilterDefinition(filterID: "f", title: "Filter", content: .source(.categories)))
            #expect(again == bound)

            // Explicit options equal to the mirrored ones: only the source changes, still a change.
            let unbound = try await store.defineFilter(
                FilterDefinition(filterID: "f", title: "Filter", content: .options(bound.options)))
            #expect(unbound.revision == bound.revision + 1 && unbound.source == nil && unbound.options == bound.options)
            let rebound = try await store.defineFilter(FilterDefinition(filterID: "f", title: "Filter", content: .source(.categories)))
            #expect(rebound.revision == unbound.revision + 1 && rebound.source == .categories)
            // Bound again, it follows the categories.
            _ = try await store.createCategory(CategoryDraft(name: name("Books")))
            let followed = try #require(try await store.filters().first { $0.filterId == "f" })
            #expect(followed.revision == rebound.revision + 1 && followed.options.last?.title == "Books")

            let empty = try await store.defineFilter(FilterDefinition(filterID: "empty", title: "Empty", content: .options([])))
            #expect(empty.revision == 1 && empty.options.isEmpty)
            try await assertInvariants(store)
        }
    }

    @Test("select, toggle, all, presentation: a change bumps by 1, a no-op neither bumps nor notifies", arguments: StoreKind.allCases)
    func edits(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            _ = try await store.defineFilter(explicitFilter("f"))
            let recorder = FilterChangeRecorder(store)
            var revision: Int64 = 1

            func expectChange(_ edit: FilterEdit, selected: Int64?, presentation: FilterPresentation) async throws {
                let state = try await store.updateFilter("f", edit)
                revision += 1
                #expect(state.revision == revision, "\(edit)")
                #expect(state.selectedId == selected, "\(edit)")
                #expect(state.presentation == presentation, "\(edit)")
                #expect(recorder.changes.last == .updated(state), "\(edit)")
                #expect(try await store.filters().last == state)
            }
            func expectNoOp(_ edit: FilterEdit) async throws {
                let before = try await ObservableState(store)
                let notified = recorder.changes.count
                let state = try await store.updateFilter("f", edit)
                #expect(state.revision == revision, "\(edit)")
                #expect(try await ObservableState(store) == before, "\(edit)")
                #expect(recorder.changes.count == notified, "\(edit)")
            }

            try await expectChange(.select(optionID: 2, toggle: false), selected: 2, presentation: .expanded)
            try await expectNoOp(.select(optionID: 2, toggle: false))
            try await expectChange(.select(optionID: 3, toggle: true), selected: 3, presentation: .expanded)
            try await expectChange(.select(optionID: 3, toggle: true), selected: nil, presentation: .expanded)
            try await expectNoOp(.select(optionID: nil, toggle: true))
            try await expectChange(.select(optionID: 1, toggle: false), selected: 1, presentation: .expanded)
            try await expectChange(.select(optionID: nil, toggle: false), selected: nil, presentation: .expanded)
            try await expectNoOp(.select(optionID: nil, toggle: false))
            try await expectNoOp(.setPresentation(.expanded))
            try await expectChange(.setPresentation(.collapsed), selected: nil, presentation: .collapsed)
            try await expectNoOp(.setPresentation(.collapsed))
            try await expectChange(.togglePresentation, selected: nil, presentation: .expanded)
            try await expectChange(.togglePresentation, selected: nil, presentation: .collapsed)

            let notified = recorder.changes.count
            let error = try await expectFailure(store, "unknownOption") { () async throws(CatalogError) in
                try await store.updateFilter("f", .select(optionID: 99, toggle: false))
            }
            #expect(error?.detailID == 99)
            try await expectFailure(store, "unknownFilter") { () async throws(CatalogError) in
                try await store.updateFilter("nope", .togglePresentation)
            }
            #expect(recorder.changes.count == notified)
            #expect(try await store.filterHistory(filterID: "f", limit: 1000).map(\.revision) == Array(1...revision))
        }
    }

    @Test("delete removes the filter but reserves its revision; a later define continues after it", arguments: StoreKind.allCases)
    func delete(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            _ = try await store.defineFilter(explicitFilter("f"))
            _ = try await store.updateFilter("f", .select(optionID: 1, toggle: false))
            let last = try await store.updateFilter("f", .togglePresentation)
            #expect(last.revision == 3)
            let recorder = FilterChangeRecorder(store)

            try await store.deleteFilter("f")
            #expect(recorder.changes == [.deleted(filterID: "f")])
            #expect(try await store.filters().map(\.filterId) == ["categories"])
            #expect(try await store.filterHistory(filterID: "f", limit: 10).isEmpty)
            try await assertInvariants(store)
            try await expectFailure(store, "unknownFilter") { () async throws(CatalogError) in
                try await store.updateFilter("f", .select(optionID: nil, toggle: false))
            }
            let again = try await expectFailure(store, "unknownFilter") { () async throws(CatalogError) in
                try await store.deleteFilter("f")
            }
            #expect(again?.rpcError.detail?.details?["id"] == .string("f"))
            try await expectFailure(store, "unknownFilter") { () async throws(CatalogError) in
                try await store.deleteFilter("never")
            }

            // Defined again, even with the same content: a new state after the reserved revision,
            // with nothing of the old one kept (no selection, expanded).
            let redefined = try await store.defineFilter(explicitFilter("f"))
            #expect(redefined.revision == 4)
            #expect(redefined.selectedId == nil && redefined.presentation == .expanded)
            #expect(recorder.changes.last == .updated(redefined))
            #expect(try await store.filterHistory(filterID: "f", limit: 10) == [redefined])
            #expect(try await store.updateFilter("f", .togglePresentation).revision == 5)
            try await assertInvariants(store)
        }
    }

    @Test("the built-in filter cannot be deleted nor unbound, but can be retitled", arguments: StoreKind.allCases)
    func builtin(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let recorder = FilterChangeRecorder(store)
            let id = FilterRules.builtinFilterID
            try await expectFailure(store, "builtinFilter") { () async throws(CatalogError) in
                try await store.deleteFilter(id)
            }
            try await expectFailure(store, "builtinFilter") { () async throws(CatalogError) in
                try await store.defineFilter(explicitFilter(id))
            }
            #expect(recorder.changes.isEmpty)
            let retitled = try await store.defineFilter(FilterDefinition(filterID: id, title: "Rubriques", content: .source(.categories)))
            #expect(retitled.revision == 2 && retitled.title == "Rubriques" && retitled.options.count == 4)
            let selected = try await store.updateFilter(id, .select(optionID: 3, toggle: false))
            #expect(selected.revision == 3 && selected.selectedId == 3)
            try await assertInvariants(store)
        }
    }

    @Test("states read back equal those the writes returned, dates to the millisecond", arguments: StoreKind.allCases)
    func exactStates(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            var returned = [try await store.defineFilter(explicitFilter("f", options: 5))]
            for option in [Int64(1), 3, 5] {
                returned.append(try await store.updateFilter("f", .select(optionID: option, toggle: false)))
                returned.append(try await store.updateFilter("f", .togglePresentation))
            }
            returned.append(try await store.defineFilter(explicitFilter("f", title: "Renamed", options: 2)))
            for state in returned {
                let milliseconds = state.updatedAt.timeIntervalSince1970 * 1000
                #expect(milliseconds == milliseconds.rounded())
            }
            #expect(try await store.filterHistory(filterID: "f", limit: 100) == returned)
            #expect(try await store.filters().last == returned.last)
        }
    }
}
