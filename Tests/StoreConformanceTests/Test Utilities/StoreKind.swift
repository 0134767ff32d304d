import CatalogStore
import CatalogStorePostgres
import CatalogStoreSQLite
import Foundation
import PostgresTestSupport
import Testing
import TestSupport

/// A store as the services see it.
typealias TestStore = any CatalogStore & FilterStore

/// Every kind of store the server runs on: each conformance test runs against each, through
/// the store protocols only, so that every kind keeps every rule of the contract.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// Runs `body` with a fresh store of this kind, holding what a new catalog starts with (the
    /// default categories and the built-in `categories` filter). A PostgreSQL store is a new
    /// database on the process's shared cluster, dropped afterwards.
    func withStore<T: Sendable>(_ body: (TestStore) async throws -> T) async throws -> T {
        switch self {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("catalog-conformance-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try SQLiteCatalogStore(path: directory.appendingPathComponent("catalog.sqlite").path, logger: quietLogger())
            return try await body(store)
        case .postgres:
            return try await withSharedClusterDatabase { cluster, database in
                try await Self.openPostgres(cluster, database, body)
            }
        }
    }

    /// Runs `body` with a source of fresh stores of this kind, for a test that opens hundreds of
    /// them one after another (a property test's sequences): each store holds what a store of
    /// `withStore(_:)` holds. Their PostgreSQL database is made once and emptied before each.
    func withFreshStores<T: Sendable>(_ body: (FreshStores) async throws -> T) async throws -> T {
        switch self {
        case .sqlite:
            return try await body(FreshStores(database: nil))
        case .postgres:
            return try await withSharedClusterDatabase { _, database in
                try await body(FreshStores(database: database))
            }
        }
    }

    /// Runs `body` with a PostgreSQL store on `database` of `cluster`, closed afterwards.
    fileprivate static func openPostgres<T: Sendable>(
        _ cluster: PostgresCluster, _ database: String, _ body: (TestStore) async throws -> T
    ) async throws -> T {
        try await PostgresCatalogStore.withStore(
            at: try PostgresLocation(url: cluster.url(database: database)), logger: quietLogger()
        ) { store in try await body(store) }
    }
}

/// Fresh stores of one kind, one after another (`StoreKind.withFreshStores(_:)`).
struct FreshStores: Sendable {
    /// The shared cluster's database every PostgreSQL store of the source is opened on, emptied
    /// before each; nil for SQLite, whose stores are each a new file.
    fileprivate let database: String?

    /// Runs `body` with a fresh store, closed afterwards. Not concurrently with another.
    func withStore<T: Sendable>(_ body: (TestStore) async throws -> T) async throws -> T {
        guard let database else { return try await StoreKind.sqlite.withStore(body) }
        let cluster = try PostgresCluster.shared()
        try cluster.emptyDatabase(database)
        return try await StoreKind.openPostgres(cluster, database, body)
    }
}
