import CatalogAPI
import CatalogStore
import CatalogStorePostgres
import CatalogStoreSQLite
import Foundation
import GRDB
import PostgresTestSupport
import StoreTestSupport
import Testing
import TestSupport

/// A database written by the build that stored every filter change as a whole state (with
/// options leaning on older changes, a pruned history, deleted and redefined filters, a filter
/// bound to the categories then not then again), migrated in place to steps: every filter,
/// every retained state and every category read back as that build read them, and writes,
/// revisions and invariants carry on.
@Suite("Stores: a history of states migrated to steps")
struct HistoryMigrationConformanceTests {
    /// What the previous build read from its database, encoded as `expected(_:)` encodes.
    struct Observed: Codable {
        var filters: [FilterState]
        var histories: [String: [FilterState]]
        var categories: [Category]
    }

    static func fixture(_ name: String) throws -> URL {
        try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "history-of-states"))
    }

    static func observed(_ store: TestStore) async throws -> String {
        let state = try await ObservableState(store)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        let observed = Observed(filters: state.filters, histories: state.histories, categories: state.categories)
        return String(decoding: try encoder.encode(observed), as: UTF8.self)
    }

    /// The database of `kind` the previous build wrote, restored, then opened by this build.
    static func withMigratedStore(_ kind: StoreKind, _ body: (TestStore) async throws -> Void) async throws {
        switch kind {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("history-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = directory.appendingPathComponent("catalog.sqlite").path
            let dump = try String(contentsOf: try fixture("sqlite.sql"), encoding: .utf8)
            try await DatabaseQueue(path: path).writeWithoutTransaction { db in try db.execute(sql: dump) }
            try await body(try SQLiteCatalogStore(path: path, logger: quietLogger()))
            // Reopened: nothing to migrate, the same history.
            let reopened = try SQLiteCatalogStore(path: path, logger: quietLogger())
            try await assertInvariants(reopened)
        case .postgres:
            let cluster = try PostgresCluster.shared()
            let database = "migrated_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
            try cluster.createDatabase(database)
            defer { try? cluster.dropDatabase(database) }
            try cluster.runScript(at: try fixture("postgres.sql").path, database: database)
            try await PostgresCatalogStore.withStore(at: try PostgresLocation(url: cluster.url(database: database)), logger: quietLogger()) {
                try await body($0)
            }
        }
    }

    @Test("every filter, retained state and category reads back as the previous build read it; writes go on", arguments: StoreKind.allCases)
    func migrated(_ kind: StoreKind) async throws {
        let expected = try String(contentsOf: try Self.fixture("\(kind.rawValue)-expected.json"), encoding: .utf8)
        try await Self.withMigratedStore(kind) { store in
            #expect(try await Self.observed(store) == expected)
            try await assertInvariants(store)
            let before = try await ObservableState(store)
            #expect(before.histories["pruned"]?.count ?? 0 >= StoredFilter.retainedChanges)

            let recorder = FilterChangeRecorder(store)
            let late = try await store.createCategory(CategoryDraft(name: name("After the migration")))
            let bound = try #require(try await store.filters().first { $0.filterId == "bound" })
            #expect(bound.options.last?.id == late.id)
            #expect(bound.revision == before.filters.first { $0.filterId == "bound" }!.revision + 1)
            let level = try await store.updateFilter("level", .select(optionID: 4, toggle: false))
            #expect(level.revision == before.filters.first { $0.filterId == "level" }!.revision + 1)
            // "gone" was deleted at revision 2: defined again, it goes on after it.
            #expect(try await store.defineFilter(explicitFilter("gone")).revision == 3)
            #expect(recorder.changes.count == 4)
            let after = try await ObservableState(store)
            for (id, history) in before.histories {
                let now = Dictionary(uniqueKeysWithValues: (after.histories[id] ?? []).map { ($0.revision, $0) })
                let kept = history.filter { now[$0.revision] != nil }
                #expect(kept.map { now[$0.revision] } == kept, "\(id)")
                #expect(kept.count >= min(history.count, StoredFilter.retainedChanges - 1), "\(id)")
            }
            try await assertInvariants(store)
        }
    }
}
