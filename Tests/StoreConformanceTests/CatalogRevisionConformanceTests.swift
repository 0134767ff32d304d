import CatalogAPI
import CatalogStore
import Foundation
import StoreTestSupport
import Testing

@Suite("Stores: the catalog revision and ImportItems")
struct CatalogRevisionConformanceTests {
    /// The catalog revision as a listing reads it.
    private static func revision(_ store: TestStore) async throws -> Int64 {
        try await store.listItems(ItemQuery(pageSize: 1)).revision
    }

    @Test("the revision grows by exactly one per write that changes items, and each item carries its last", arguments: StoreKind.allCases)
    func revisionPerWrite(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let categories = try await store.listCategories(CategoryQuery())
            let (family, cars) = (categories[0], categories[1])
            let start = try await Self.revision(store)
            #expect(start >= 1)

            let created = try await store.createItem(ItemDraft(title: "One", categoryID: family.id))
            #expect(created.revision == start + 1)
            #expect(try await Self.revision(store) == start + 1)

            let unchanged = try await store.updateItem(id: created.id, ItemChanges(title: "One"))
            #expect(unchanged.revision == start + 1, "a write that changes nothing takes no revision")
            let renamed = try await store.updateItem(id: created.id, ItemChanges(title: "Uno", categoryID: .set(cars.id)))
            #expect(renamed.revision == start + 2, "one revision for the item's fields and its category")

            _ = try await store.updateCategory(id: cars.id, CategoryChanges(name: name("Autos")), expectedRevision: nil)
            #expect(try await Self.revision(store) == start + 2, "a rename changes no item")

            let second = try await store.createItem(ItemDraft(title: "Two"))
            #expect(try await store.assignItems([created.id, second.id], to: family.id, dryRun: false) == 2)
            #expect(try await store.item(id: created.id).revision == start + 4)
            #expect(try await store.item(id: second.id).revision == start + 4, "both moved in one write, at one revision")
            #expect(try await store.assignItems([created.id], to: family.id, dryRun: true) == 0)
            #expect(try await store.moveItems(from: cars.id, to: family.id) == 0)
            #expect(try await Self.revision(store) == start + 4, "dry runs and moves of nothing take no revision")

            #expect(try await store.moveItems(from: family.id, to: cars.id) == 2)
            #expect(try await Self.revision(store) == start + 5)
            try await store.deleteItem(id: second.id)
            #expect(try await Self.revision(store) == start + 6)
            let empty = try await store.createCategory(CategoryDraft(name: name("Vide")))
            _ = try await store.deleteCategory(CategoryDeletion(id: empty.id, items: .unassign))
            #expect(try await Self.revision(store) == start + 6, "deleting an empty category changes no item")
            let extra = try await store.createCategory(CategoryDraft(name: name("Extra")))
            #expect(try await store.assignItems([created.id], to: extra.id, dryRun: false) == 1)
            _ = try await store.deleteCategory(CategoryDeletion(id: extra.id, items: .move, moveTo: family.id))
            #expect(try await store.item(id: created.id).revision == start + 8, "moved by the category's deletion")
            #expect(try await store.listItems(ItemQuery()).items.map(\.revision) == [start + 8])
            try await assertInvariants(store)
        }
    }

    @Test("an import creates every item with consecutive ids in order, at one revision", arguments: StoreKind.allCases)
    func importItems(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let family = try await store.listCategories(CategoryQuery())[0]
            let start = try await Self.revision(store)
            let drafts = (0..<1_200).map { index in
                ItemDraft(
                    title: "Formation \(index)", summary: index.isMultiple(of: 2) ? "Résumé" : nil,
                    price: index.isMultiple(of: 3) ? Money(amount: "\(index).50", currency: "EUR") : nil,
                    categoryID: index.isMultiple(of: 4) ? family.id : nil)
            }
            let imported = try await store.importItems(drafts)
            #expect(imported.created == 1_200)
            #expect(imported.revision == start + 1)
            let (first, last) = (try #require(imported.firstId), try #require(imported.lastId))
            #expect(last - first == 1_199, "consecutive ids")
            let sample = try await store.item(id: first + 3)
            #expect(sample.title == "Formation 3")
            #expect(sample.price == Money(amount: "3.50", currency: "EUR"))
            #expect(sample.summary == nil)
            #expect(sample.revision == start + 1)
            #expect(try await store.item(id: last).title == "Formation 1199")
            #expect(try await store.category(id: family.id).itemCount == 300)
            #expect(try await store.listItems(ItemQuery()).totalCount == 1_200)
            try await assertInvariants(store)

            let none = try await store.importItems([])
            #expect(none == ImportItemsResponse(created: 0, revision: start + 1), "no items: nothing written")
        }
    }

    @Test("an import naming a missing category creates nothing and names the message", arguments: StoreKind.allCases)
    func refusedImport(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let family = try await store.listCategories(CategoryQuery())[0]
            let start = try await Self.revision(store)
            var drafts = (0..<500).map { ItemDraft(title: "Item \($0)", categoryID: family.id) }
            drafts[499].categoryID = 999
            let refused = try await expectFailure(store, "notFound") { () async throws(CatalogError) in
                try await store.importItems(drafts)
            }
            #expect(refused?.detailID == 999)
            #expect(refused?.rpcError.detail?.details?["index"] == .integer(499))
            let badPrice = try await expectFailure(store, "invalidField") { () async throws(CatalogError) in
                try await store.importItems([ItemDraft(title: "ok"), ItemDraft(title: "bad", price: Money(amount: "1,5", currency: "EUR"))])
            }
            #expect(badPrice?.rpcError.detail?.details?["index"] == .integer(1))
            #expect(try await Self.revision(store) == start)
            #expect(try await store.listItems(ItemQuery()).totalCount == 0)
        }
    }
}
