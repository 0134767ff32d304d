import CatalogAPI
import CatalogStore
import Foundation
import StoreTestSupport
import Testing

@Suite("Stores: items")
struct ItemConformanceTests {
    @Test("create, read, update and delete keep every category's item count", arguments: StoreKind.allCases)
    func crud(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let categories = try await store.listCategories(CategoryQuery())
            let (family, cars) = (categories[0], categories[1])
            let created = try await store.createItem(
                ItemDraft(
                    title: "Prompt Engineering", summary: "Bien écrire", level: "Débutant", duration: "2 jours",
                    price: Money(amount: "990.00", currency: "EUR"), imageURL: "https://example.com/1.png",
                    categoryID: family.id))
            try await assertInvariants(store)
            #expect(created.title == "Prompt Engineering")
            #expect(created.price == Money(amount: "990.00", currency: "EUR"))
            #expect(created.categoryId == family.id)
            #expect(try await store.item(id: created.id) == created)
            #expect(try await store.category(id: family.id).itemCount == 1)

            let missingCategory = try await expectFailure(store, "notFound") { () async throws(CatalogError) in
                try await store.createItem(ItemDraft(title: "x", categoryID: 88))
            }
            #expect(missingCategory?.detailID == 88)
            try await expectFailure(store, "invalidField") { () async throws(CatalogError) in
                try await store.createItem(ItemDraft(title: "x", price: Money(amount: "12,5", currency: "EUR")))
            }

            let moved = try await store.updateItem(
                id: created.id, ItemChanges(title: "Prompting", categoryID: .set(cars.id)))
            try await assertInvariants(store)
            #expect(moved.title == "Prompting")
            #expect(moved.summary == "Bien écrire")
            #expect(moved.categoryId == cars.id)
            #expect(try await store.category(id: family.id).itemCount == 0)
            #expect(try await store.category(id: cars.id).itemCount == 1)

            let updateMissing = try await expectFailure(store, "notFound") { () async throws(CatalogError) in
                try await store.updateItem(id: created.id, ItemChanges(categoryID: .set(77)))
            }
            #expect(updateMissing?.detailID == 77)
            try await expectFailure(store, "notFound") { () async throws(CatalogError) in
                try await store.updateItem(id: 12345, ItemChanges(title: "x"))
            }

            let cleared = try await store.updateItem(id: created.id, ItemChanges(summary: .clear, price: .clear))
            try await assertInvariants(store)
            #expect(cleared.summary == nil && cleared.price == nil && cleared.title == "Prompting")
            let bySummary = try await store.listItems(ItemQuery(search: "ecrire"))
            #expect(bySummary.items.isEmpty, "the cleared summary is no longer searched")

            let unassigned = try await store.updateItem(id: created.id, ItemChanges(categoryID: .clear))
            try await assertInvariants(store)
            #expect(unassigned.categoryId == nil)
            #expect(try await store.category(id: cars.id).itemCount == 0)

            _ = try await store.updateItem(id: created.id, ItemChanges(categoryID: .set(family.id)))
            try await store.deleteItem(id: created.id)
            try await assertInvariants(store)
            #expect(try await store.category(id: family.id).itemCount == 0)
            let gone = try await expectFailure(store, "notFound") { () async throws(CatalogError) in
                try await store.deleteItem(id: created.id)
            }
            #expect(gone?.detailID == created.id)
        }
    }

    @Test("list filters by category, level and a case- and diacritic-insensitive search", arguments: StoreKind.allCases)
    func filters(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let family = try await store.listCategories(CategoryQuery())[0]
            let generative = try await store.createItem(
                ItemDraft(title: "IA Générative", level: "Débutant", categoryID: family.id))
            let summary = try await store.createItem(ItemDraft(title: "Python", summary: "Avec l'ÉLÈVE", level: "Avancé"))
            _ = try await store.createItem(ItemDraft(title: "Rust", level: "Débutant"))
            try await assertInvariants(store)

            let search = try await store.listItems(ItemQuery(search: "generative"))
            #expect(search.items.map(\.id) == [generative.id])
            #expect(search.totalCount == 1)
            #expect(try await store.listItems(ItemQuery(search: "GÉNÉ")).items.map(\.id) == [generative.id])
            #expect(try await store.listItems(ItemQuery(search: "  ia gen ")).items.map(\.id) == [generative.id])
            #expect(try await store.listItems(ItemQuery(search: "eleve")).items.map(\.id) == [summary.id])
            #expect(try await store.listItems(ItemQuery(level: "Débutant")).totalCount == 2)
            #expect(try await store.listItems(ItemQuery(categoryID: family.id)).items.map(\.id) == [generative.id])
            #expect(try await store.listItems(ItemQuery(categoryID: family.id, level: "Avancé")).items.isEmpty)
            let none = try await store.listItems(ItemQuery(search: "nothing like this"))
            #expect(none.items.isEmpty)
            #expect(none.totalCount == 0)
            #expect(none.nextPageToken == nil)
        }
    }

    @Test("list sorts by title, price (no price last) and creation, either way", arguments: StoreKind.allCases)
    func sorting(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let banana = try await store.createItem(
                ItemDraft(title: "banana", price: Money(amount: "10.50", currency: "EUR")))
            let apple = try await store.createItem(ItemDraft(title: "Apple", price: Money(amount: "9.99", currency: "EUR")))
            let cherry = try await store.createItem(ItemDraft(title: "Çherry"))
            let date = try await store.createItem(ItemDraft(title: "date", price: Money(amount: "100", currency: "EUR")))
            try await assertInvariants(store)

            func ids(_ sort: ItemSort, _ descending: Bool) async throws -> [Int64] {
                try await store.listItems(ItemQuery(sort: sort, descending: descending)).items.map(\.id)
            }
            #expect(try await ids(.title, false) == [apple.id, banana.id, cherry.id, date.id])
            #expect(try await ids(.title, true) == [date.id, cherry.id, banana.id, apple.id])
            #expect(try await ids(.price, false) == [apple.id, banana.id, date.id, cherry.id])
            #expect(try await ids(.price, true) == [date.id, banana.id, apple.id, cherry.id])
            #expect(try await ids(.createdAt, false) == [banana.id, apple.id, cherry.id, date.id])
            #expect(try await ids(.createdAt, true) == [date.id, cherry.id, apple.id, banana.id])
        }
    }

    @Test("pages are stable: an insert between fetches neither duplicates nor skips a row", arguments: StoreKind.allCases)
    func pagination(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            for index in 0..<23 {
                let price = index % 4 == 0 ? nil : Money(amount: "\(index % 5).00", currency: "EUR")
                _ = try await store.createItem(ItemDraft(title: "item \(index % 7)", price: price))
            }
            try await assertInvariants(store)
            for sort in ItemSort.allCases {
                for descending in [false, true] {
                    let full = try await store.listItems(ItemQuery(sort: sort, descending: descending, pageSize: 500))
                    #expect(full.items.count == full.totalCount)
                    var seen: [Int64] = []
                    var token: String?
                    var pages = 0
                    repeat {
                        let page = try await store.listItems(
                            ItemQuery(sort: sort, descending: descending, pageSize: 5, pageToken: token))
                        #expect(page.items.count <= 5)
                        seen += page.items.map(\.id)
                        token = page.nextPageToken
                        pages += 1
                        if pages == 2 {
                            // A row inserted mid-listing must not disturb the remaining pages.
                            _ = try await store.createItem(
                                ItemDraft(title: "item 3", price: Money(amount: "2.00", currency: "EUR")))
                        }
                    } while token != nil && pages < 20
                    #expect(Set(seen).count == seen.count, "duplicates with \(sort) descending \(descending)")
                    let before = Set(full.items.map(\.id))
                    #expect(before.isSubset(of: Set(seen)), "skipped rows with \(sort) descending \(descending)")
                    // The order of the pre-existing rows is the full listing's order.
                    #expect(seen.filter(before.contains) == full.items.map(\.id))
                }
            }
            try await assertInvariants(store)
        }
    }

    @Test("a malformed or foreign page token is INVALID_ARGUMENT pageToken", arguments: StoreKind.allCases)
    func malformedToken(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            for index in 0..<3 { _ = try await store.createItem(ItemDraft(title: "\(index)")) }
            for token in ["", "not base64!", Data("{\"x\":1}".utf8).base64EncodedString()] {
                let error = try await expectFailure(store, "invalidField") { () async throws(CatalogError) in
                    try await store.listItems(ItemQuery(pageSize: 1, pageToken: token))
                }
                #expect(error?.rpcError.detail?.field == "pageToken")
            }
            let first = try await store.listItems(ItemQuery(sort: .title, pageSize: 1))
            let token = try #require(first.nextPageToken)
            #expect(first.totalCount == 3)
            try await expectFailure(store, "invalidField") { () async throws(CatalogError) in
                try await store.listItems(ItemQuery(sort: .price, pageSize: 1, pageToken: token))
            }
            let second = try await store.listItems(ItemQuery(sort: .title, pageSize: 1, pageToken: token))
            #expect(second.items.map(\.title) == ["1"])
        }
    }
}
