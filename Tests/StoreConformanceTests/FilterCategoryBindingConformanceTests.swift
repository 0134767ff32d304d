import CatalogAPI
import CatalogStore
import Foundation
import StoreTestSupport
import Testing

/// The filters bound to `source: categories` follow every category write in its transaction.
@Suite("Stores: filters bound to the categories")
struct FilterCategoryBindingConformanceTests {
    /// The built-in filter now.
    func builtin(_ store: TestStore) async throws -> FilterState {
        try #require(try await store.filters().first { $0.filterId == FilterRules.builtinFilterID })
    }

    /// Runs a category write and checks the built-in filter then mirrors the categories, one
    /// revision later (or unchanged when `bumps` is false), and was notified exactly once.
    @discardableResult
    func expectBump<T>(
        _ store: TestStore, bumps: Bool = true, sourceLocation: SourceLocation = #_sourceLocation,
        _ write: () async throws(CatalogError) -> T
    ) async throws -> FilterState {
        let before = try await builtin(store)
        let recorder = FilterChangeRecorder(store)
        _ = try await write()
        let after = try await builtin(store)
        let categories = try await store.listCategories(CategoryQuery())
        #expect(after.options == mirroredOptions(categories), sourceLocation: sourceLocation)
        if bumps {
            #expect(after.revision == before.revision + 1, sourceLocation: sourceLocation)
            #expect(recorder.changes == [.updated(after)], sourceLocation: sourceLocation)
        } else {
            #expect(after == before, sourceLocation: sourceLocation)
            #expect(recorder.changes.isEmpty, sourceLocation: sourceLocation)
        }
        try await assertInvariants(store, sourceLocation: sourceLocation)
        return after
    }

    @Test("create, rename, icon changes and moves update the options in position order", arguments: StoreKind.allCases)
    func createUpdateMove(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let created = try await expectBump(store) { () async throws(CatalogError) in
                try await store.createCategory(CategoryDraft(name: name("Books"), icon: "book"))
            }
            #expect(created.options.last == FilterOption(id: 5, title: "Books", icon: "book"))
            #expect(created.revision == 2)
            try await expectBump(store) { () async throws(CatalogError) in
                try await store.updateCategory(id: 5, CategoryChanges(name: name("Livres")), expectedRevision: nil)
            }
            try await expectBump(store) { () async throws(CatalogError) in
                try await store.updateCategory(id: 5, CategoryChanges(icon: .set("books.vertical")), expectedRevision: nil)
            }
            let cleared = try await expectBump(store) { () async throws(CatalogError) in
                try await store.updateCategory(id: 5, CategoryChanges(icon: .clear), expectedRevision: nil)
            }
            #expect(cleared.options.last == FilterOption(id: 5, title: "Livres"))
            // Colour and isDefault are not part of an option.
            try await expectBump(store, bumps: false) { () async throws(CatalogError) in
                try await store.updateCategory(id: 5, CategoryChanges(color: "#000000"), expectedRevision: nil)
            }
            try await expectBump(store, bumps: false) { () async throws(CatalogError) in
                try await store.updateCategory(id: 5, CategoryChanges(isDefault: true), expectedRevision: nil)
            }
            try await expectBump(store, bumps: false) { () async throws(CatalogError) in
                try await store.updateCategory(id: 5, CategoryChanges(name: name("Livres")), expectedRevision: nil)
            }
            let moved = try await expectBump(store) { () async throws(CatalogError) in
                try await store.moveCategory(id: 5, to: .position(0))
            }
            #expect(moved.options.map(\.id) == [5, 1, 2, 3, 4])
            try await expectBump(store) { () async throws(CatalogError) in
                try await store.moveCategory(id: 2, to: .step(.down))
            }
            try await expectBump(store, bumps: false) { () async throws(CatalogError) in
                try await store.moveCategory(id: 2, to: .position(3))
            }
            #expect(try await builtin(store).revision == 7)
        }
    }

    @Test("deleting with each item policy removes the option; a selected one is cleared in the same revision", arguments: StoreKind.allCases)
    func delete(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            var ids: [Int64] = []
            for label in ["A", "B", "C", "D"] {
                ids.append(try await store.createCategory(CategoryDraft(name: name(label))).id)
                _ = try await store.createItem(ItemDraft(title: "item \(label)", categoryID: ids.last))
            }
            _ = try await store.updateFilter(FilterRules.builtinFilterID, .select(optionID: ids[0], toggle: false))
            let deleted = try await expectBump(store) { () async throws(CatalogError) in
                try await store.deleteCategory(CategoryDeletion(id: ids[0], items: .delete))
            }
            #expect(deleted.selectedId == nil)
            #expect(!deleted.options.contains { $0.id == ids[0] })

            _ = try await store.updateFilter(FilterRules.builtinFilterID, .select(optionID: 1, toggle: false))
            let unassigned = try await expectBump(store) { () async throws(CatalogError) in
                try await store.deleteCategory(CategoryDeletion(id: ids[1], items: .unassign))
            }
            #expect(unassigned.selectedId == 1)
            try await expectBump(store) { () async throws(CatalogError) in
                try await store.deleteCategory(CategoryDeletion(id: ids[2], items: .move, moveTo: ids[3]))
            }
            _ = try await store.deleteItem(id: try await store.listItems(ItemQuery(categoryID: ids[3])).items[0].id)
            _ = try await store.deleteItem(id: try await store.listItems(ItemQuery(categoryID: ids[3])).items[0].id)
            let rejected = try await expectBump(store) { () async throws(CatalogError) in
                try await store.deleteCategory(CategoryDeletion(id: ids[3], items: .reject))
            }
            #expect(rejected.options.map(\.id) == [1, 2, 3, 4])
        }
    }

    @Test("a merge removes the sources' options in one revision, clearing a selected source", arguments: StoreKind.allCases)
    func merge(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let a = try await store.createCategory(CategoryDraft(name: name("A")))
            let b = try await store.createCategory(CategoryDraft(name: name("B")))
            _ = try await store.updateFilter(FilterRules.builtinFilterID, .select(optionID: b.id, toggle: false))
            let merged = try await expectBump(store) { () async throws(CatalogError) in
                try await store.mergeCategories(sourceIDs: [a.id, b.id], into: 1, dryRun: false)
            }
            #expect(merged.selectedId == nil)
            #expect(merged.options.map(\.id) == [1, 2, 3, 4])
        }
    }

    @Test("imports in merge and replace mode update the options; an import changing nothing does not", arguments: StoreKind.allCases)
    func imports(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            func record(_ label: String, _ position: Int, icon: String? = nil, isDefault: Bool = false) -> CategoryImport {
                CategoryImport(name: name(label), color: "#123456", icon: icon, position: position, isDefault: isDefault)
            }
            let merged = try await expectBump(store) { () async throws(CatalogError) in
                try await store.importCategories([record("X", 0), record("Y", 1)], mode: .merge, dryRun: false)
            }
            #expect(merged.options.suffix(2).map(\.title) == ["X", "Y"])
            try await expectBump(store) { () async throws(CatalogError) in
                try await store.importCategories([record("X", 0, icon: "star")], mode: .merge, dryRun: false)
            }
            try await expectBump(store, bumps: false) { () async throws(CatalogError) in
                try await store.importCategories([record("X", 0, icon: "star")], mode: .merge, dryRun: false)
            }
            _ = try await store.updateFilter(FilterRules.builtinFilterID, .select(optionID: merged.options.last?.id, toggle: false))
            let replaced = try await expectBump(store) { () async throws(CatalogError) in
                try await store.importCategories([record("Z", 0)], mode: .replace, dryRun: false)
            }
            #expect(replaced.selectedId == nil)
            #expect(replaced.options.map(\.title) == ["Family", "Cars", "Games", "Sports", "Z"])
        }
    }

    @Test("dry runs, failed category writes and item writes change and notify nothing", arguments: StoreKind.allCases)
    func noChange(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let a = try await store.createCategory(CategoryDraft(name: name("A")))
            let item = try await store.createItem(ItemDraft(title: "item", categoryID: a.id))
            let recorder = FilterChangeRecorder(store)
            _ = try await expectNoChange(store) { () async throws(CatalogError) in
                try await store.deleteCategory(CategoryDeletion(id: a.id, items: .delete, dryRun: true))
            }
            _ = try await expectNoChange(store) { () async throws(CatalogError) in
                try await store.mergeCategories(sourceIDs: [a.id], into: 1, dryRun: true)
            }
            _ = try await expectNoChange(store) { () async throws(CatalogError) in
                try await store.importCategories(
                    [CategoryImport(name: name("N"), color: "#123456", position: 0, isDefault: false)], mode: .replace,
                    dryRun: true)
            }
            try await expectFailure(store, "duplicateName") { () async throws(CatalogError) in
                try await store.createCategory(CategoryDraft(name: name("A")))
            }
            try await expectFailure(store, "categoryNotEmpty") { () async throws(CatalogError) in
                try await store.deleteCategory(CategoryDeletion(id: a.id, items: .reject))
            }
            try await expectFailure(store, "revisionMismatch") { () async throws(CatalogError) in
                try await store.moveCategory(id: a.id, to: .position(0), expectedRevision: a.revision + 1)
            }
            #expect(recorder.changes.isEmpty)

            let filtersBefore = try await store.filters()
            let other = try await store.createItem(ItemDraft(title: "other"))
            _ = try await store.updateItem(id: other.id, ItemChanges(title: "renamed", categoryID: .set(a.id)))
            _ = try await store.assignItems([item.id], to: 1, dryRun: false)
            _ = try await store.moveItems(from: 1, to: a.id)
            try await store.deleteItem(id: other.id)
            #expect(recorder.changes.isEmpty)
            #expect(try await store.filters() == filtersBefore)
        }
    }

    @Test("every bound filter follows the categories; explicit and deleted ones do not", arguments: StoreKind.allCases)
    func severalFilters(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let bound = FilterDefinition(filterID: "bound", title: "Bound", content: .source(.categories))
            _ = try await store.defineFilter(bound)
            _ = try await store.defineFilter(explicitFilter("explicit"))
            _ = try await store.defineFilter(FilterDefinition(filterID: "gone", title: "Gone", content: .source(.categories)))
            try await store.deleteFilter("gone")
            let before = try await store.filters()
            let recorder = FilterChangeRecorder(store)

            _ = try await store.createCategory(CategoryDraft(name: name("Books")))
            let after = try await store.filters()
            #expect(after.map(\.filterId) == ["bound", "categories", "explicit"])
            #expect(after.map(\.revision) == before.map { $0.revision + ($0.source == .categories ? 1 : 0) })
            #expect(recorder.changes == [.updated(after[0]), .updated(after[1])])
            try await assertInvariants(store)

            let revived = try await store.defineFilter(FilterDefinition(filterID: "gone", title: "Gone", content: .source(.categories)))
            #expect(revived.revision == 2 && revived.options.last?.title == "Books")
        }
    }
}
