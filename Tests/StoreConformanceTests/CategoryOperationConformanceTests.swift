import CatalogAPI
import CatalogStore
import Foundation
import StoreTestSupport
import Testing

@Suite("Stores: moving, merging, assigning, stats, export and import")
struct CategoryOperationConformanceTests {
    @Test("move up, down and to a position shifts the others and bumps their revisions", arguments: StoreKind.allCases)
    func move(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let initial = try await store.listCategories(CategoryQuery())
            let (family, cars, games, sports) = (initial[0], initial[1], initial[2], initial[3])

            let up = try await store.moveCategory(id: games.id, to: .step(.up))
            try await assertInvariants(store)
            #expect(up.map(\.name) == ["Family", "Games", "Cars", "Sports"])
            #expect(up.map(\.position) == [0, 1, 2, 3])
            #expect(up.first { $0.id == games.id }?.revision == 2)
            #expect(up.first { $0.id == cars.id }?.revision == 2)
            #expect(up.first { $0.id == family.id }?.revision == 1)

            let down = try await store.moveCategory(id: family.id, to: .step(.down))
            try await assertInvariants(store)
            #expect(down.map(\.name) == ["Games", "Family", "Cars", "Sports"])

            let toEnd = try await store.moveCategory(id: games.id, to: .position(3))
            try await assertInvariants(store)
            #expect(toEnd.map(\.name) == ["Family", "Cars", "Sports", "Games"])
            let toStart = try await store.moveCategory(id: sports.id, to: .position(0))
            try await assertInvariants(store)
            #expect(toStart.map(\.name) == ["Sports", "Family", "Cars", "Games"])

            let unchanged = try await expectNoChange(store) { () async throws(CatalogError) in
                try await store.moveCategory(id: sports.id, to: .position(0))
            }
            #expect(unchanged == toStart)

            try await expectFailure(store, "alreadyFirst") { () async throws(CatalogError) in
                try await store.moveCategory(id: sports.id, to: .step(.up))
            }
            try await expectFailure(store, "alreadyLast") { () async throws(CatalogError) in
                try await store.moveCategory(id: games.id, to: .step(.down))
            }
            for position in [-1, 4, 100] {
                let error = try await expectFailure(store, "invalidField") { () async throws(CatalogError) in
                    try await store.moveCategory(id: games.id, to: .position(position))
                }
                #expect(error?.rpcError.detail?.field == "toPosition")
            }
            let missing = try await expectFailure(store, "notFound") { () async throws(CatalogError) in
                try await store.moveCategory(id: 31, to: .step(.up))
            }
            #expect(missing?.detailID == 31)

            let current = try await store.category(id: games.id)
            try await expectFailure(store, "revisionMismatch") { () async throws(CatalogError) in
                try await store.moveCategory(id: games.id, to: .step(.up), expectedRevision: current.revision - 1)
            }
            let moved = try await store.moveCategory(id: games.id, to: .step(.up), expectedRevision: current.revision)
            try await assertInvariants(store)
            #expect(moved.map(\.name) == ["Sports", "Family", "Games", "Cars"])
        }
    }

    @Test("merge moves the items to the target, deletes the sources and keeps positions dense", arguments: StoreKind.allCases)
    func merge(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let a = try await store.createCategory(CategoryDraft(name: name("A")))
            let b = try await store.createCategory(CategoryDraft(name: name("B")))
            let c = try await store.createCategory(CategoryDraft(name: name("C")))
            let family = try await store.listCategories(CategoryQuery())[0]
            for (index, category) in [a, a, b, c, family].enumerated() {
                _ = try await store.createItem(ItemDraft(title: "item \(index)", categoryID: category.id))
            }
            try await assertInvariants(store)

            let missing = try await expectFailure(store, "notFound") { () async throws(CatalogError) in
                try await store.mergeCategories(sourceIDs: [a.id, 500, 600], into: c.id, dryRun: false)
            }
            #expect(missing?.detailID == 500)
            let missingTarget = try await expectFailure(store, "notFound") { () async throws(CatalogError) in
                try await store.mergeCategories(sourceIDs: [a.id], into: 700, dryRun: false)
            }
            #expect(missingTarget?.detailID == 700)
            let targetAmongSources = try await expectFailure(store, "invalidField") { () async throws(CatalogError) in
                try await store.mergeCategories(sourceIDs: [a.id, c.id], into: c.id, dryRun: false)
            }
            #expect(targetAmongSources?.rpcError.detail?.field == "sourceIds")
            let defaultSource = try await expectFailure(store, "defaultCategory") { () async throws(CatalogError) in
                try await store.mergeCategories(sourceIDs: [a.id, family.id], into: c.id, dryRun: false)
            }
            #expect(defaultSource?.detailID == family.id)

            let dry = try await expectNoChange(store) { () async throws(CatalogError) in
                try await store.mergeCategories(sourceIDs: [a.id, b.id], into: c.id, dryRun: true)
            }
            #expect(dry.movedItems == 3)
            #expect(dry.deletedIds == [a.id, b.id])
            #expect(dry.target.itemCount == 4)

            let response = try await store.mergeCategories(sourceIDs: [a.id, b.id], into: c.id, dryRun: false)
            try await assertInvariants(store)
            #expect(response.movedItems == 3)
            #expect(response.deletedIds == [a.id, b.id])
            #expect(response.target.id == c.id)
            #expect(response.target.itemCount == 4)
            #expect(response.target.position == 4)
            #expect(response.target.revision == 2)  // its position changed from 6 to 4
            #expect(
                try await store.listCategories(CategoryQuery()).map(\.name) == ["Family", "Cars", "Games", "Sports", "C"])
            // The merge into the default Family of a non-default works.
            _ = try await store.mergeCategories(sourceIDs: [c.id], into: family.id, dryRun: false)
            try await assertInvariants(store)
            #expect(try await store.category(id: family.id).itemCount == 5)
        }
    }

    @Test("assign items counts only the items whose category changes", arguments: StoreKind.allCases)
    func assignItems(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let categories = try await store.listCategories(CategoryQuery())
            let (family, cars) = (categories[0], categories[1])
            let one = try await store.createItem(ItemDraft(title: "one", categoryID: family.id))
            let two = try await store.createItem(ItemDraft(title: "two", categoryID: cars.id))
            let three = try await store.createItem(ItemDraft(title: "three"))
            try await assertInvariants(store)

            let missingItem = try await expectFailure(store, "notFound") { () async throws(CatalogError) in
                try await store.assignItems([one.id, 999, 998], to: cars.id, dryRun: false)
            }
            #expect(missingItem?.detailID == 999)
            let missingCategory = try await expectFailure(store, "notFound") { () async throws(CatalogError) in
                try await store.assignItems([one.id], to: 55, dryRun: false)
            }
            #expect(missingCategory?.detailID == 55)

            let dry = try await expectNoChange(store) { () async throws(CatalogError) in
                try await store.assignItems([one.id, two.id, three.id], to: cars.id, dryRun: true)
            }
            #expect(dry == 2)
            #expect(try await store.assignItems([one.id, two.id, three.id, one.id], to: cars.id, dryRun: false) == 2)
            try await assertInvariants(store)
            #expect(try await store.category(id: cars.id).itemCount == 3)
            #expect(try await store.category(id: family.id).itemCount == 0)
            #expect(try await store.assignItems([two.id], to: nil, dryRun: false) == 1)
            try await assertInvariants(store)
            #expect(try await store.item(id: two.id).categoryId == nil)
        }
    }

    @Test("move items moves every item of one category to another", arguments: StoreKind.allCases)
    func moveItems(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let categories = try await store.listCategories(CategoryQuery())
            let (family, cars) = (categories[0], categories[1])
            for index in 0..<3 { _ = try await store.createItem(ItemDraft(title: "\(index)", categoryID: family.id)) }
            _ = try await store.createItem(ItemDraft(title: "car", categoryID: cars.id))
            let missing = try await expectFailure(store, "notFound") { () async throws(CatalogError) in
                try await store.moveItems(from: family.id, to: 404)
            }
            #expect(missing?.detailID == 404)
            try await expectFailure(store, "notFound") { () async throws(CatalogError) in
                try await store.moveItems(from: 403, to: family.id)
            }
            #expect(try await store.moveItems(from: family.id, to: cars.id) == 3)
            try await assertInvariants(store)
            #expect(try await store.category(id: cars.id).itemCount == 4)
            #expect(try await store.category(id: cars.id).revision == 1)  // itemCount does not bump it
            #expect(try await store.moveItems(from: family.id, to: cars.id) == 0)
            #expect(try await store.moveItems(from: cars.id, to: cars.id) == 0)
            try await assertInvariants(store)
        }
    }

    @Test("stats answer counts and shares of all items", arguments: StoreKind.allCases)
    func stats(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let empty = try await store.stats()
            #expect(empty.itemCount == 0)
            #expect(empty.categoryCount == 4)
            #expect(empty.emptyCategoryCount == 4)
            #expect(empty.categories.allSatisfy { $0.share == 0 })
            let family = try await store.listCategories(CategoryQuery())[0]
            for index in 0..<3 { _ = try await store.createItem(ItemDraft(title: "\(index)", categoryID: family.id)) }
            _ = try await store.createItem(ItemDraft(title: "loose"))
            try await assertInvariants(store)
            let stats = try await store.stats()
            #expect(stats.itemCount == 4)
            #expect(stats.uncategorizedItemCount == 1)
            #expect(stats.emptyCategoryCount == 3)
            #expect(stats.categories.map(\.name) == ["Family", "Cars", "Games", "Sports"])
            #expect(stats.categories[0].share == 0.75)
            #expect(stats.categories[0].itemCount == 3)
            #expect(stats.categories[1].share == 0)
        }
    }

    @Test("export lists the categories in position order", arguments: StoreKind.allCases)
    func export(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let books = try await store.createCategory(CategoryDraft(name: name("Books"), icon: "book"))
            _ = try await store.moveCategory(id: books.id, to: .position(0))
            let records = try await store.exportCategories()
            #expect(records.map(\.name) == ["Books", "Family", "Cars", "Games", "Sports"])
            #expect(records.map(\.position) == [0, 1, 2, 3, 4])
            #expect(
                records[0]
                    == CategoryRecord(
                        name: "Books", color: CategoryPalette.palette[4], icon: "book", position: 0, isDefault: false))
            try await assertInvariants(store)
        }
    }

    @Test("import in merge mode creates, updates and keeps by slug", arguments: StoreKind.allCases)
    func importMerge(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let exported = try await store.exportCategories()
            var records = exported.map {
                CategoryImport(
                    name: name($0.name), color: $0.color, icon: $0.icon, position: $0.position, isDefault: $0.isDefault)
            }
            records[1].color = "#000000"  // Cars changes
            records.append(CategoryImport(name: name("Zebra"), color: "#111111", position: 9, isDefault: false))
            records.append(
                CategoryImport(name: name("Apple"), color: "#222222", icon: "apple", position: 0, isDefault: false))

            let dry = try await expectNoChange(store) { () async throws(CatalogError) in
                try await store.importCategories(records, mode: .merge, dryRun: true)
            }
            #expect(dry == ImportCategoriesResponse(created: 2, updated: 1, unchanged: 3, deleted: 0))
            let response = try await store.importCategories(records, mode: .merge, dryRun: false)
            try await assertInvariants(store)
            #expect(response == dry)
            let after = try await store.listCategories(CategoryQuery())
            #expect(after.map(\.name) == ["Family", "Cars", "Games", "Sports", "Zebra", "Apple"])
            #expect(after[1].color == "#000000")
            #expect(after[1].revision == 2)
            #expect(after[0].revision == 1)
            let again = try await store.importCategories(records, mode: .merge, dryRun: false)
            #expect(again == ImportCategoriesResponse(created: 0, updated: 0, unchanged: 6, deleted: 0))
            try await assertInvariants(store)
            try await expectFailure(store, "invalidField") { () async throws(CatalogError) in
                try await store.importCategories(records + [records[4]], mode: .merge, dryRun: false)
            }
        }
    }

    @Test("import in replace mode also deletes the unnamed non-default categories, unassigning their items", arguments: StoreKind.allCases)
    func importReplace(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let books = try await store.createCategory(CategoryDraft(name: name("Books")))
            let films = try await store.createCategory(CategoryDraft(name: name("Films")))
            let item = try await store.createItem(ItemDraft(title: "Dune", categoryID: books.id))
            _ = try await store.moveCategory(id: books.id, to: .position(0))
            try await assertInvariants(store)
            let records = [
                CategoryImport(name: name("Films"), color: films.color, position: 0, isDefault: false),
                CategoryImport(name: name("Music"), color: "#333333", position: 1, isDefault: false),
            ]
            let dry = try await expectNoChange(store) { () async throws(CatalogError) in
                try await store.importCategories(records, mode: .replace, dryRun: true)
            }
            #expect(dry == ImportCategoriesResponse(created: 1, updated: 0, unchanged: 1, deleted: 1))
            let response = try await store.importCategories(records, mode: .replace, dryRun: false)
            try await assertInvariants(store)
            #expect(response == dry)
            #expect(
                try await store.listCategories(CategoryQuery()).map(\.name) == [
                    "Family", "Cars", "Games", "Sports", "Films", "Music",
                ])
            #expect(try await store.item(id: item.id).categoryId == nil)
            try await expectFailure(store, "notFound") { () async throws(CatalogError) in
                try await store.category(id: books.id)
            }
        }
    }
}
