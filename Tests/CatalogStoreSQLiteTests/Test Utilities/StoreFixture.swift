import CatalogAPI
import CatalogServer
import Foundation
import GRDB
import Testing

@testable import CatalogStoreSQLite

/// A store on a real SQLite file in a fresh temporary directory.
func makeStore() throws -> SQLiteCatalogStore {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("catalog-store-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return try SQLiteCatalogStore(path: directory.appendingPathComponent("catalog.sqlite").path)
}

/// Every row of both tables, by id.
struct Snapshot: Equatable, Sendable {
    var categories: [[DatabaseValue]]
    var items: [[DatabaseValue]]
}

func snapshot(_ store: SQLiteCatalogStore) async throws -> Snapshot {
    try await store.database.read { db in
        Snapshot(
            categories: try Row.fetchAll(db, sql: "SELECT * FROM category ORDER BY id").map {
                Array($0.databaseValues)
            },
            items: try Row.fetchAll(db, sql: "SELECT * FROM item ORDER BY id").map { Array($0.databaseValues) })
    }
}

/// Checks the raw tables: positions dense 0..n-1, slugs unique, no dangling categoryId, and every
/// itemCount equal to the truth.
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
    }
}

/// Runs an operation that must fail with `reason`, checks it changed nothing and the invariants hold;
/// returns the error.
@discardableResult
func expectFailure<T>(
    _ store: SQLiteCatalogStore, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ operation: () async throws(CatalogError) -> T
) async throws -> CatalogError? {
    let before = try await snapshot(store)
    var failure: CatalogError?
    do {
        _ = try await operation()
        Issue.record("expected \(reason), the operation succeeded", sourceLocation: sourceLocation)
    } catch {
        failure = error
        #expect(error.reason == reason, "\(error)", sourceLocation: sourceLocation)
    }
    let after = try await snapshot(store)
    #expect(before == after, "a failed operation changed the store", sourceLocation: sourceLocation)
    try await assertInvariants(store, sourceLocation: sourceLocation)
    return failure
}

/// Runs a dry run: checks it changed nothing and the invariants hold; returns its answer.
func expectNoChange<T>(
    _ store: SQLiteCatalogStore, sourceLocation: SourceLocation = #_sourceLocation,
    _ operation: () async throws(CatalogError) -> T
) async throws -> T {
    let before = try await snapshot(store)
    let result = try await operation()
    let after = try await snapshot(store)
    #expect(before == after, "a dry run changed the store", sourceLocation: sourceLocation)
    try await assertInvariants(store, sourceLocation: sourceLocation)
    return result
}

func name(_ text: String) -> CategoryName {
    var slug = ""
    var inSpace = false
    for character in text.precomposedStringWithCanonicalMapping.lowercased() {
        if character.isWhitespace {
            if !inSpace { slug.append("_") }
            inSpace = true
        } else {
            slug.append(character)
            inSpace = false
        }
    }
    return CategoryName(name: text, slug: slug)
}

extension CatalogError {
    /// `details.id` as an integer, when present.
    var detailID: Int64? {
        if case .number(let value)? = rpcError.detail?.details?["id"] { return Int64(value) }
        return nil
    }
}
