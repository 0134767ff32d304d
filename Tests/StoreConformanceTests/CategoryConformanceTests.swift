import CatalogAPI
import CatalogStore
import Foundation
import StoreTestSupport
import Testing

@Suite("Stores: categories")
struct CategoryConformanceTests {
    @Test("a fresh store holds the four default categories in palette colours", arguments: StoreKind.allCases)
    func freshStore(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let categories = try await store.listCategories(CategoryQuery())
            #expect(categories.map(\.name) == ["Family", "Cars", "Games", "Sports"])
            #expect(categories.map(\.slug) == ["family", "cars", "games", "sports"])
            #expect(categories.map(\.position) == [0, 1, 2, 3])
            #expect(categories.allSatisfy { $0.isDefault })
            #expect(categories.map(\.color) == Array(CategoryPalette.palette.prefix(4)))
            #expect(categories.allSatisfy { $0.itemCount == 0 && $0.revision == 1 })
            try await assertInvariants(store)
        }
    }

    @Test("create appends at the end with the palette colour of its position", arguments: StoreKind.allCases)
    func createAppends(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let books = try await store.createCategory(CategoryDraft(name: name("IA Générative"), icon: "sparkles"))
            try await assertInvariants(store)
            #expect(books.position == 4)
            #expect(books.color == CategoryPalette.palette[4])
            #expect(books.slug == "ia_générative")
            #expect(books.icon == "sparkles")
            #expect(!books.isDefault)
            #expect(books.revision == 1)
            let red = try await store.createCategory(CategoryDraft(name: name("Red"), color: "#FF0000"))
            try await assertInvariants(store)
            #expect(red.color == "#FF0000")
            #expect(red.position == 5)
            #expect(try await store.category(id: books.id) == books)
        }
    }

    @Test("a name whose slug is taken is ALREADY_EXISTS with the existing id", arguments: StoreKind.allCases)
    func duplicateName(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let family = try #require(try await store.listCategories(CategoryQuery()).first)
            let error = try await expectFailure(store, "duplicateName") { () async throws(CatalogError) in
                try await store.createCategory(CategoryDraft(name: name("FAMILY")))
            }
            #expect(error?.rpcError.code == .alreadyExists)
            #expect(error?.detailID == family.id)
            let cars = try await store.listCategories(CategoryQuery())[1]
            let renameError = try await expectFailure(store, "duplicateName") { () async throws(CatalogError) in
                try await store.updateCategory(id: cars.id, CategoryChanges(name: name("family")), expectedRevision: nil)
            }
            #expect(renameError?.detailID == family.id)
        }
    }

    @Test("a missing category is NOT_FOUND with its id", arguments: StoreKind.allCases)
    func notFound(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let error = try await expectFailure(store, "notFound") { () async throws(CatalogError) in
                try await store.category(id: 999)
            }
            #expect(error?.detailID == 999)
            try await expectFailure(store, "notFound") { () async throws(CatalogError) in
                try await store.updateCategory(id: 999, CategoryChanges(color: "#000000"), expectedRevision: nil)
            }
        }
    }

    @Test("update bumps the revision only when something changes; a stale revision is ABORTED", arguments: StoreKind.allCases)
    func update(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let cars = try await store.listCategories(CategoryQuery())[1]
            let renamed = try await store.updateCategory(
                id: cars.id, CategoryChanges(name: name("Fast Cars"), icon: .set("car.fill")), expectedRevision: 1)
            try await assertInvariants(store)
            #expect(renamed.name == "Fast Cars")
            #expect(renamed.slug == "fast_cars")
            #expect(renamed.icon == "car.fill")
            #expect(renamed.revision == 2)
            #expect(renamed.updatedAt >= cars.updatedAt)
            let same = try await store.updateCategory(
                id: cars.id, CategoryChanges(name: name("Fast Cars")), expectedRevision: nil)
            #expect(same.revision == 2)
            let cleared = try await store.updateCategory(
                id: cars.id, CategoryChanges(icon: .clear, isDefault: false), expectedRevision: 2)
            #expect(cleared.icon == nil)
            #expect(!cleared.isDefault)
            #expect(cleared.revision == 3)
            try await assertInvariants(store)
            let error = try await expectFailure(store, "revisionMismatch") { () async throws(CatalogError) in
                try await store.updateCategory(id: cars.id, CategoryChanges(color: "#000000"), expectedRevision: 1)
            }
            #expect(error?.rpcError.code == .aborted)
        }
    }

    @Test("list filters by name, hides empty categories and sorts", arguments: StoreKind.allCases)
    func list(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let categories = try await store.listCategories(CategoryQuery())
            _ = try await store.createItem(ItemDraft(title: "A", categoryID: categories[2].id))
            _ = try await store.createItem(ItemDraft(title: "B", categoryID: categories[2].id))
            _ = try await store.createItem(ItemDraft(title: "C", categoryID: categories[3].id))
            try await assertInvariants(store)
            #expect(try await store.listCategories(CategoryQuery(search: "AM")).map(\.name) == ["Family", "Games"])
            #expect(try await store.listCategories(CategoryQuery(search: " ily ")).map(\.name) == ["Family"])
            #expect(try await store.listCategories(CategoryQuery(hideEmpty: true)).map(\.name) == ["Games", "Sports"])
            #expect(
                try await store.listCategories(CategoryQuery(sort: .name)).map(\.name) == [
                    "Cars", "Family", "Games", "Sports",
                ])
            #expect(
                try await store.listCategories(CategoryQuery(sort: .itemCount, descending: true)).map(\.name)
                    == ["Games", "Sports", "Family", "Cars"])
            #expect(
                try await store.listCategories(CategoryQuery(descending: true)).map(\.name)
                    == ["Sports", "Games", "Cars", "Family"])
        }
    }
}

@Suite("Stores: deleting categories")
struct DeleteCategoryConformanceTests {
    /// Runs `body` with a store with two extra categories, the first holding two items.
    func withFixture(_ kind: StoreKind, _ body: (TestStore, Category, Category, [Item]) async throws -> Void) async throws {
        try await kind.withStore { store async throws in
            let books = try await store.createCategory(CategoryDraft(name: name("Books")))
            let films = try await store.createCategory(CategoryDraft(name: name("Films")))
            let first = try await store.createItem(ItemDraft(title: "Dune", categoryID: books.id))
            let second = try await store.createItem(ItemDraft(title: "Emma", categoryID: books.id))
            try await assertInvariants(store)
            try await body(store, try await store.category(id: books.id), films, [first, second])
        }
    }

    @Test("reject refuses a category holding items with its item count", arguments: StoreKind.allCases)
    func reject(_ kind: StoreKind) async throws {
        try await withFixture(kind) { store, books, _, _ async throws in
            let error = try await expectFailure(store, "categoryNotEmpty") { () async throws(CatalogError) in
                try await store.deleteCategory(CategoryDeletion(id: books.id))
            }
            #expect(error?.rpcError.code == .failedPrecondition)
            #expect(error?.rpcError.detail?.details?["itemCount"] == .number(2))
        }
    }

    @Test("an empty category is deleted and the positions after it close the gap", arguments: StoreKind.allCases)
    func deleteEmpty(_ kind: StoreKind) async throws {
        try await withFixture(kind) { store, books, films, _ async throws in
            let family = try await store.listCategories(CategoryQuery())[0]
            _ = try await store.moveCategory(id: films.id, to: .position(0))
            try await assertInvariants(store)
            let response = try await store.deleteCategory(CategoryDeletion(id: films.id))
            try await assertInvariants(store)
            #expect(response == DeleteCategoryResponse(deletedItems: 0, movedItems: 0, unassignedItems: 0))
            let after = try await store.listCategories(CategoryQuery())
            #expect(after.map(\.name) == ["Family", "Cars", "Games", "Sports", "Books"])
            #expect(try await store.category(id: family.id).revision == 3)  // shifted twice
            #expect(try await store.category(id: books.id).position == 4)
        }
    }

    @Test("delete policy deletes the items", arguments: StoreKind.allCases)
    func deleteItems(_ kind: StoreKind) async throws {
        try await withFixture(kind) { store, books, _, items async throws in
            let dry = try await expectNoChange(store) { () async throws(CatalogError) in
                try await store.deleteCategory(CategoryDeletion(id: books.id, items: .delete, dryRun: true))
            }
            #expect(dry == DeleteCategoryResponse(deletedItems: 2, movedItems: 0, unassignedItems: 0))
            let response = try await store.deleteCategory(CategoryDeletion(id: books.id, items: .delete))
            try await assertInvariants(store)
            #expect(response == dry)
            try await expectFailure(store, "notFound") { () async throws(CatalogError) in
                try await store.item(id: items[0].id)
            }
        }
    }

    @Test("unassign policy keeps the items without a category", arguments: StoreKind.allCases)
    func unassign(_ kind: StoreKind) async throws {
        try await withFixture(kind) { store, books, _, items async throws in
            let dry = try await expectNoChange(store) { () async throws(CatalogError) in
                try await store.deleteCategory(CategoryDeletion(id: books.id, items: .unassign, dryRun: true))
            }
            #expect(dry.unassignedItems == 2)
            let response = try await store.deleteCategory(CategoryDeletion(id: books.id, items: .unassign))
            try await assertInvariants(store)
            #expect(response == DeleteCategoryResponse(deletedItems: 0, movedItems: 0, unassignedItems: 2))
            #expect(try await store.item(id: items[1].id).categoryId == nil)
            #expect(try await store.stats().uncategorizedItemCount == 2)
        }
    }

    @Test("move policy moves the items to moveTo, which must exist and differ", arguments: StoreKind.allCases)
    func move(_ kind: StoreKind) async throws {
        try await withFixture(kind) { store, books, films, items async throws in
            let missing = try await expectFailure(store, "notFound") { () async throws(CatalogError) in
                try await store.deleteCategory(CategoryDeletion(id: books.id, items: .move, moveTo: 777))
            }
            #expect(missing?.detailID == 777)
            let itself = try await expectFailure(store, "invalidField") { () async throws(CatalogError) in
                try await store.deleteCategory(CategoryDeletion(id: books.id, items: .move, moveTo: books.id))
            }
            #expect(itself?.rpcError.detail?.field == "moveTo")
            try await expectFailure(store, "moveToRequired") { () async throws(CatalogError) in
                try await store.deleteCategory(CategoryDeletion(id: books.id, items: .move))
            }
            let dry = try await expectNoChange(store) { () async throws(CatalogError) in
                try await store.deleteCategory(CategoryDeletion(id: books.id, items: .move, moveTo: films.id, dryRun: true))
            }
            #expect(dry.movedItems == 2)
            let response = try await store.deleteCategory(CategoryDeletion(id: books.id, items: .move, moveTo: films.id))
            try await assertInvariants(store)
            #expect(response == DeleteCategoryResponse(deletedItems: 0, movedItems: 2, unassignedItems: 0))
            #expect(try await store.item(id: items[0].id).categoryId == films.id)
            let movedTo = try await store.category(id: films.id)
            #expect(movedTo.itemCount == 2)
            #expect(movedTo.position == 4)
        }
    }

    @Test("a default category cannot be deleted, nor the last one, nor with a stale revision", arguments: StoreKind.allCases)
    func rules(_ kind: StoreKind) async throws {
        try await withFixture(kind) { store, books, films, _ async throws in
            let family = try await store.listCategories(CategoryQuery())[0]
            let error = try await expectFailure(store, "defaultCategory") { () async throws(CatalogError) in
                try await store.deleteCategory(CategoryDeletion(id: family.id))
            }
            #expect(error?.detailID == family.id)
            try await expectFailure(store, "revisionMismatch") { () async throws(CatalogError) in
                try await store.deleteCategory(CategoryDeletion(id: films.id, expectedRevision: 5))
            }
            try await expectFailure(store, "notFound") { () async throws(CatalogError) in
                try await store.deleteCategory(CategoryDeletion(id: 4242))
            }
            // Make every category deletable, then delete down to one.
            for category in try await store.listCategories(CategoryQuery()) where category.isDefault {
                _ = try await store.updateCategory(
                    id: category.id, CategoryChanges(isDefault: false), expectedRevision: nil)
            }
            _ = try await store.deleteCategory(CategoryDeletion(id: books.id, items: .delete))
            try await assertInvariants(store)
            for listed in try await store.listCategories(CategoryQuery()) where listed.id != films.id {
                // Earlier deletions shifted this one, so its revision moved on since the listing.
                let category = try await store.category(id: listed.id)
                #expect(category.revision > listed.revision || category.position == listed.position)
                _ = try await store.deleteCategory(CategoryDeletion(id: category.id, expectedRevision: category.revision))
                try await assertInvariants(store)
            }
            try await expectFailure(store, "lastCategory") { () async throws(CatalogError) in
                try await store.deleteCategory(CategoryDeletion(id: films.id))
            }
            let last = try await store.category(id: films.id)
            #expect(last.position == 0)
        }
    }
}
