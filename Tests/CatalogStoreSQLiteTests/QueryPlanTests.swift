import CatalogAPI
import CatalogStore
import Foundation
import GRDB
import StoreTestSupport
import Testing

@testable import CatalogStoreSQLite

@Suite("SQLite store: query plans stay fast at scale")
struct QueryPlanTests {
    /// The plan's steps, e.g. `SEARCH item USING INDEX item_category_price (categoryId=?)`.
    func queryPlan(_ store: SQLiteCatalogStore, _ statement: SQLiteCatalogStore.Statement, limit: Bool = true)
        async throws
        -> [String]
    {
        try await store.database.read { db in
            try Row.fetchAll(
                db, sql: "EXPLAIN QUERY PLAN " + statement.sql,
                arguments: limit ? statement.arguments + [51] : statement.arguments
            )
            .map { $0["detail"] as String }
        }
    }

    @Test("every item page is read in index order, with or without a category, on every page")
    func itemPages() async throws {
        let store = try makeStore()
        let first = try await store.createItem(ItemDraft(title: "a", price: Money(amount: "1.00", currency: "EUR")))
        let tokens: [ItemSort: [String]] = [
            .title: [
                PageToken(sort: "title", descending: false, filter: "", text: "a", number: nil, id: first.id).encoded()
            ],
            .createdAt: [
                PageToken(sort: "createdAt", descending: false, filter: "", text: "2026", number: nil, id: first.id)
                    .encoded()
            ],
            .price: [
                PageToken(sort: "price", descending: false, filter: "", text: nil, number: 100, id: first.id).encoded(),
                PageToken(sort: "price", descending: false, filter: "", text: nil, number: nil, id: first.id).encoded(),
            ],
        ]
        for sort in ItemSort.allCases {
            for descending in [false, true] {
                for categoryID in [nil, Int64(1)] {
                    var queries = [ItemQuery(categoryID: categoryID, sort: sort, descending: descending)]
                    for token in tokens[sort] ?? [] {
                        // Re-encode the token for this query's direction and filter.
                        var decoded = try #require(PageToken(encoded: token))
                        decoded.descending = descending
                        decoded.filter = categoryID.map { "1:\($0)|-|-" } ?? "-|-|-"
                        queries.append(
                            ItemQuery(
                                categoryID: categoryID, sort: sort, descending: descending, pageToken: decoded.encoded()
                            ))
                    }
                    for query in queries {
                        let plan = try SQLiteCatalogStore.itemListPlan(query)
                        for segment in plan.segments {
                            let steps = try await queryPlan(store, segment)
                            #expect(!steps.contains { $0.contains("TEMP B-TREE") }, "\(segment.sql): \(steps)")
                            #expect(steps.contains { $0.contains("INDEX") }, "\(segment.sql): \(steps)")
                        }
                        if categoryID != nil {
                            // Filtered by category alone, the total is the category's maintained
                            // itemCount: one primary-key lookup, no item is counted.
                            let steps = try await queryPlan(store, plan.count, limit: false)
                            #expect(steps.contains { $0.contains("category USING INTEGER PRIMARY KEY") }, "\(plan.count.sql): \(steps)")
                            #expect(!steps.contains { $0.contains("item") }, "\(plan.count.sql): \(steps)")
                        }
                    }
                }
            }
        }
        try await assertInvariants(store)
    }

    @Test("categories list by position from the index")
    func categories() async throws {
        let store = try makeStore()
        let steps = try await queryPlan(
            store, .init(sql: "SELECT * FROM category ORDER BY position ASC LIMIT ?", arguments: []))
        #expect(steps.contains { $0.contains("category_position") }, "\(steps)")
        #expect(!steps.contains { $0.contains("TEMP B-TREE") }, "\(steps)")
    }

    @Test("a category write finds the bound filters by point lookups of their current steps")
    func boundFilters() async throws {
        let store = try makeStore()
        for index in 0..<3 { _ = try await store.defineFilter(explicitFilter("f\(index)")) }
        let steps = try await queryPlan(store, .init(sql: SQLiteCatalogStore.boundFiltersSQL, arguments: []), limit: false)
        // The current step (alias c) by its key: a point lookup, never a scan of the history.
        let stepSearches = steps.filter { $0 == "SEARCH c" || $0.hasPrefix("SEARCH c ") || $0.hasPrefix("SCAN c") }
        #expect(stepSearches.count == 1, "\(steps)")
        #expect(stepSearches.allSatisfy { $0.hasPrefix("SEARCH") && $0.hasSuffix("(filterId=? AND revision=?)") }, "\(steps)")
    }
}
