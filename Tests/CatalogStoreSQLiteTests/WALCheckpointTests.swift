import CatalogStore
import Foundation
import GRDB
import Testing

@testable import CatalogStoreSQLite

@Suite("WAL checkpoints beside the writer")
struct WALCheckpointTests {
    @Test("under a stream of writes the WAL stays bounded and its pages reach the database file")
    func walStaysBounded() async throws {
        let store = try makeStore()
        let file = store.database.path
        let pageSize = try await store.database.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size")! }
        let initialSize = try Self.size(of: file)

        // Each toggle writes a few pages: enough to pass the inline threshold many times over.
        for _ in 0..<6000 {
            _ = try await store.updateFilter("categories", .togglePresentation)
        }
        let walPages = try Self.size(of: file + "-wal") / pageSize
        #expect(walPages <= Int(WALCheckpointer.writerPages) + 64, "the WAL grew to \(walPages) pages")
        #expect(try Self.size(of: file) > initialSize, "checkpoints copied pages into the database file")
    }

    private static func size(of path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }
}
