import CatalogAPI
import CatalogStore
import Foundation
import StoreTestSupport
import Testing

@Suite("DemoCatalog on each store")
struct DemoCatalogConformanceTests {
    @Test("seeds an empty store once: 5 categories, every item valid and in EUR, ids 1...n; a second seed is a no-op", arguments: StoreKind.allCases)
    func seedsOnce(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            #expect(try await DemoCatalog.seed(into: store))
            try await assertInvariants(store)

            let categories = try await store.listCategories(CategoryQuery())
            #expect(categories.map(\.name).suffix(5) == ["IA Générative", "Développement", "Data", "Design", "Management"])
            #expect(categories.suffix(5).allSatisfy { $0.itemCount > 0 && $0.icon != nil })
            let items = try await store.listItems(ItemQuery(pageSize: 500))
            #expect(items.totalCount == DemoCatalog.itemCount)
            #expect(items.totalCount >= 48)
            #expect(items.items.map(\.id) == Array(1...Int64(DemoCatalog.itemCount)))
            #expect(items.items.allSatisfy { $0.price?.currency == "EUR" && $0.summary != nil && $0.level != nil && $0.duration != nil })
            #expect(items.items.contains { $0.categoryId == nil })
            #expect(Set(items.items.map(\.title)).count == items.items.count, "titles are distinct")

            let before = try await ObservableState(store)
            #expect(try await DemoCatalog.seed(into: store) == false)
            #expect(try await ObservableState(store) == before)
        }
    }

    @Test("does nothing when the store holds an item; reuses an existing category of the same name", arguments: StoreKind.allCases)
    func respectsExistingData(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let item = try await store.createItem(ItemDraft(title: "Mon article"))
            #expect(try await DemoCatalog.seed(into: store) == false)
            #expect(try await store.listItems(ItemQuery()).items == [item])
            #expect(try await store.listCategories(CategoryQuery()).count == 4)
        }
        try await kind.withStore { other async throws in
            let data = try await other.createCategory(CategoryDraft(name: name("data")))
            #expect(try await DemoCatalog.seed(into: other))
            let categories = try await other.listCategories(CategoryQuery())
            #expect(categories.count == 4 + 5)
            #expect(try await other.category(id: data.id).itemCount > 0)
            try await assertInvariants(other)
        }
    }
}
