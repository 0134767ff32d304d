import CatalogAPI
import CatalogStore
import Foundation
import GRDB
import StoreTestSupport
import Testing

@testable import CatalogStoreSQLite

@Suite("Categories.List from the kept categories")
struct CategoryListingTests {
    private static let names = [
        "Zèbre", "zebra", "Été", "ete", "Œuvres", "Ångström", "apple", "Apple pie", "b", "B2", "Ça", "ça va", "Ōsaka",
        "日本", "Δέλτα", "emoji 🎓", "A  B", "a_b_c", "Éclair", "eclairs",
    ]

    /// The query `listCategories` ran in SQL before categories were kept in memory: the
    /// reference the in-memory selection must agree with.
    private static func referenceIDs(_ db: Database, _ query: CategoryQuery) throws -> [Int64] {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let search = query.search.map({ CategoryRules.slug(for: $0.trimmingCharacters(in: .whitespacesAndNewlines)) }),
            !search.isEmpty
        {
            conditions.append("instr(slug, ?) > 0")
            arguments += [search]
        }
        if query.hideEmpty { conditions.append("itemCount > 0") }
        let direction = query.descending ? "DESC" : "ASC"
        let order =
            switch query.sort {
            case .position: "position \(direction)"
            case .name: "slug \(direction), position"
            case .itemCount: "itemCount \(direction), position"
            case .createdAt: "createdAt \(direction), id \(direction)"
            }
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try Int64.fetchAll(db, sql: "SELECT id FROM category \(whereClause) ORDER BY \(order)", arguments: arguments)
    }

    @Test("every sort, direction, search and hideEmpty selects what SQLite's ordering selects")
    func agreesWithSQLite() async throws {
        let store = try makeStore()
        var generator = SystemRandomNumberGenerator()
        var categoryIDs: [Int64] = []
        for text in Self.names {
            categoryIDs.append(try await store.createCategory(CategoryDraft(name: name(text))).id)
        }
        // Item counts with many ties, some categories empty.
        for _ in 0..<60 {
            let categoryID = categoryIDs[Int.random(in: 0..<categoryIDs.count / 2, using: &generator)]
            _ = try await store.createItem(ItemDraft(title: "item", categoryID: categoryID))
        }
        let searches: [String?] = [nil, "", "  ", "e", "É", "ca", "a_b", "A B", "🎓", "日", "zzz"]
        for search in searches {
            for sort in CategorySort.allCases {
                for descending in [false, true] {
                    for hideEmpty in [false, true] {
                        let query = CategoryQuery(search: search, hideEmpty: hideEmpty, sort: sort, descending: descending)
                        let listed = try await store.listCategories(query).map(\.id)
                        let expected = try await store.database.read { db in try Self.referenceIDs(db, query) }
                        #expect(listed == expected, "\(query)")
                    }
                }
            }
        }
    }

    @Test("a List after an acknowledged write always shows it, while other tasks read and write")
    func neverStale() async throws {
        let store = try makeStore()
        let first = try await store.createCategory(CategoryDraft(name: name("Start"))).id
        try await withThrowingTaskGroup(of: Void.self) { group in
            // Readers keep refilling the cache while the checked writer goes on.
            for _ in 0..<3 {
                group.addTask {
                    for _ in 0..<300 { _ = try await store.listCategories(CategoryQuery()) }
                }
            }
            group.addTask {
                for step in 0..<150 {
                    switch step % 3 {
                    case 0:
                        let created = try await store.createCategory(CategoryDraft(name: name("Category \(step)")))
                        #expect(try await store.listCategories(CategoryQuery()).contains { $0.id == created.id })
                    case 1:
                        _ = try await store.createItem(ItemDraft(title: "item \(step)", categoryID: first))
                        let count = try await store.listCategories(CategoryQuery()).first { $0.id == first }?.itemCount
                        #expect(count == step / 3 + 1)
                    default:
                        let renamed = try await store.updateCategory(
                            id: first, CategoryChanges(name: name("Start \(step)")), expectedRevision: nil)
                        #expect(try await store.listCategories(CategoryQuery()).first { $0.id == first }?.name == renamed.name)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test("a dry run and a failed write leave the kept categories as they were")
    func unchangedByRollback() async throws {
        let store = try makeStore()
        let doomed = try await store.createCategory(CategoryDraft(name: name("Doomed")))
        let before = try await store.listCategories(CategoryQuery())
        let generation = store.categoryCache.generation
        _ = try await store.deleteCategory(CategoryDeletion(id: doomed.id, items: .unassign, dryRun: true))
        await #expect(throws: CatalogError.self) {
            _ = try await store.createCategory(CategoryDraft(name: name(before[0].name)))
        }
        #expect(store.categoryCache.generation == generation)
        #expect(try await store.listCategories(CategoryQuery()) == before)
    }
}
