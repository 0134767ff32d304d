import CatalogAPI
import CatalogStore
import Foundation
import GRDB
import StoreTestSupport
import Testing

@testable import CatalogStoreSQLite

@Suite("SQLite store: filters")
struct FilterStoreTests {
    @Test("migrating a store of v1 binds the built-in filter to the categories it holds")
    func migrateFromV1() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("v1-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("catalog.sqlite").path
        do {
            let queue = try DatabaseQueue(path: path)
            try SQLiteCatalogStore.migrator.migrate(queue, upTo: "v1")
            try await queue.write { db in
                try db.execute(sql: "UPDATE category SET position = 3 - position")
                try db.execute(
                    sql: """
                        INSERT INTO category (name, slug, color, icon, position, createdAt, updatedAt)
                        VALUES ('Books', 'books', '#000000', NULL, 4, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)
                        """)
            }
        }
        let store = try SQLiteCatalogStore(path: path)
        let builtin = try #require(try await store.filters().first)
        #expect(builtin.options.map(\.title) == ["Sports", "Games", "Cars", "Family", "Books"])
        #expect(builtin.options.last == FilterOption(id: 5, title: "Books"))
        #expect(builtin.revision == 1)
        try await assertInvariants(store)
    }

    @Test("migrating a store of v2 keeps every filter change, as steps clustered on their key")
    func migrateFromV2() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("v2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("catalog.sqlite").path
        do {
            let queue = try DatabaseQueue(path: path)
            try SQLiteCatalogStore.migrator.migrate(queue, upTo: "v2")
            try await queue.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO filter (id, revision, optionsRevision, deleted) VALUES ('level', 3, 1, 0);
                        INSERT INTO filter_change (filterId, revision, title, source, options, selectedId, presentation, updatedAt)
                        VALUES ('level', 1, 'Level', NULL, '[{"id":1,"title":"Easy"},{"id":2,"title":"Hard"}]', NULL, 'expanded', 1000),
                               ('level', 2, 'Level', NULL, NULL, 2, 'expanded', 2000),
                               ('level', 3, 'Level', NULL, NULL, 2, 'collapsed', 3000);
                        """)
            }
        }
        let store = try SQLiteCatalogStore(path: path)
        let steps = try await store.filterSteps(filterID: "level", after: 0)
        #expect(steps.map(\.revision) == [1, 2, 3])
        #expect(steps.map(\.edits.count) == [2, 0, 0])
        let definition = try await store.database.read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'filter_step'")
        }
        #expect(definition?.hasSuffix("WITHOUT ROWID") == true, "\(definition ?? "no filter_step")")

        let level = try #require(try await store.filters().first { $0.filterId == "level" })
        #expect(level.revision == 3 && level.selectedId == 2 && level.presentation == .collapsed)
        #expect(level.options == [FilterOption(id: 1, title: "Easy"), FilterOption(id: 2, title: "Hard")])
        let next = try await store.updateFilter("level", .select(optionID: 1, toggle: false))
        #expect(next.revision == 4 && next.selectedId == 1)
        #expect(try await store.filterHistory(filterID: "level", limit: .max).map(\.revision) == [1, 2, 3, 4])
        try await assertInvariants(store)
    }

    @Test("a reopened store keeps filters, history and revisions")
    func reopen() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reopen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("catalog.sqlite").path
        var returned: [FilterState] = []
        do {
            let store = try SQLiteCatalogStore(path: path)
            returned.append(try await store.defineFilter(explicitFilter("f")))
            returned.append(try await store.updateFilter("f", .select(optionID: 2, toggle: false)))
            _ = try await store.defineFilter(explicitFilter("gone"))
            try await store.deleteFilter("gone")
        }
        let store = try SQLiteCatalogStore(path: path)
        #expect(try await store.filters().map(\.filterId) == ["categories", "f"])
        #expect(try await store.filterHistory(filterID: "f", limit: 10) == returned)
        #expect(try await store.updateFilter("f", .togglePresentation).revision == 3)
        #expect(try await store.defineFilter(explicitFilter("gone")).revision == 2)
        try await assertInvariants(store)
    }
}
