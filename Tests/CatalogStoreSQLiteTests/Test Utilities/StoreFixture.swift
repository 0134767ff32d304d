import CatalogAPI
import CatalogStore
import Foundation
import GRDB
import Logging
import StoreTestSupport
import Synchronization
import Testing

@testable import CatalogStoreSQLite

/// The directory that holds every store `makeStore` makes, removed when the test process exits.
private let storesDirectory: URL = {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("catalog-store-tests-\(UUID().uuidString)", isDirectory: true)
    atexit { try? FileManager.default.removeItem(at: storesDirectory) }
    return directory
}()

/// A store on a real SQLite file in a fresh temporary directory; its log is dropped unless
/// `logger` is given.
func makeStore(logger: Logger? = nil) throws -> SQLiteCatalogStore {
    let directory = storesDirectory.appendingPathComponent(UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return try SQLiteCatalogStore(
        path: directory.appendingPathComponent("catalog.sqlite").path,
        logger: logger ?? Logger(label: "test.store") { _ in SwiftLogNoOpLogHandler() })
}

/// Every row of every table, by key.
struct Snapshot: Equatable, Sendable {
    var categories: [[DatabaseValue]]
    var items: [[DatabaseValue]]
    var filters: [[DatabaseValue]]
    var filterSteps: [[DatabaseValue]]
}

func snapshot(_ store: SQLiteCatalogStore) async throws -> Snapshot {
    try await store.database.read { db in
        func rows(_ sql: String) throws -> [[DatabaseValue]] {
            try Row.fetchAll(db, sql: sql).map { Array($0.databaseValues) }
        }
        return Snapshot(
            categories: try rows("SELECT * FROM category ORDER BY id"),
            items: try rows("SELECT * FROM item ORDER BY id"),
            filters: try rows("SELECT * FROM filter ORDER BY id"),
            filterSteps: try rows("SELECT * FROM filter_step ORDER BY filterId, revision"))
    }
}

/// Checks the raw tables: positions dense 0..n-1, slugs unique, no dangling categoryId, every
/// itemCount equal to the truth, every filter bound to the categories mirroring them, and every
/// filter history consecutive up to the current revision.
func assertInvariants(_ store: SQLiteCatalogStore, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    try await store.database.read { db in
        let positions = try Int.fetchAll(db, sql: "SELECT position FROM category ORDER BY position")
        #expect(positions == Array(0..<positions.count), "positions are not dense", sourceLocation: sourceLocation)
        let slugs = try String.fetchAll(db, sql: "SELECT slug FROM category")
        #expect(Set(slugs).count == slugs.count, "slugs are not unique", sourceLocation: sourceLocation)
        let dangling = try Int.fetchOne(
            db,
            sql:
                "SELECT COUNT(*) FROM item WHERE categoryId IS NOT NULL AND categoryId NOT IN (SELECT id FROM category)"
        )
        #expect(dangling == 0, "items name missing categories", sourceLocation: sourceLocation)
        let wrongCounts = try Row.fetchAll(
            db,
            sql: """
                SELECT c.id, c.itemCount, (SELECT COUNT(*) FROM item i WHERE i.categoryId = c.id) AS actual
                FROM category c WHERE c.itemCount != actual
                """)
        #expect(wrongCounts.isEmpty, "itemCount differs from the truth: \(wrongCounts)", sourceLocation: sourceLocation)
        let foreignKeyViolations = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
        #expect(foreignKeyViolations.isEmpty, sourceLocation: sourceLocation)

        let categories = try db.fetchAll(
            sql: "SELECT \(SQLiteCatalogStore.categoryColumns) FROM category", SQLiteCatalogStore.category)
        let filters = try SQLiteCatalogStore.fetchFilters(db)
        #expect(filters.contains { $0.filterId == FilterRules.builtinFilterID }, sourceLocation: sourceLocation)
        for filter in filters {
            if filter.source == .categories {
                #expect(
                    filter.options == mirroredOptions(categories),
                    "filter '\(filter.filterId)' does not mirror the categories", sourceLocation: sourceLocation)
            }
            if let selected = filter.selectedId {
                #expect(filter.options.contains { $0.id == selected }, sourceLocation: sourceLocation)
            }
            let steps = try SQLiteCatalogStore.fetchFilterSteps(db, id: filter.filterId, after: 0)
            let history = FilterStep.states(current: filter, steps: steps)
            #expect(history.last == filter, "filter '\(filter.filterId)' history", sourceLocation: sourceLocation)
            #expect(
                steps.map(\.revision) == Array((filter.revision - Int64(steps.count) + 1)...filter.revision),
                "filter '\(filter.filterId)' history is not consecutive", sourceLocation: sourceLocation)
        }
        let boundWithOptions = try Int.fetchOne(
            db,
            sql: """
                SELECT COUNT(*) FROM filter f JOIN filter_step c ON c.filterId = f.id AND c.revision = f.revision
                WHERE (c.source = 'categories') = (f.options IS NOT NULL) AND f.deleted = 0
                """)
        #expect(boundWithOptions == 0, "a bound filter stores options, or an explicit one lacks them", sourceLocation: sourceLocation)
    }
}

/// Runs an operation that must fail with `reason`, checks it changed no row and the invariants
/// hold; returns the error.
@discardableResult
func expectFailure<T>(
    _ store: SQLiteCatalogStore, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ operation: () async throws(CatalogError) -> T
) async throws -> CatalogError? {
    let failure = try await expectFailure(reason, unchanged: { try await snapshot(store) }, sourceLocation: sourceLocation, operation)
    try await assertInvariants(store, sourceLocation: sourceLocation)
    return failure
}
