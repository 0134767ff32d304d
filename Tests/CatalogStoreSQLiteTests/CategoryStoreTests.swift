import CatalogAPI
import CatalogStore
import Foundation
import StoreTestSupport
import Testing

@testable import CatalogStoreSQLite

@Suite("SQLite store: categories")
struct CategoryStoreTests {
    @Test("reopening a store keeps its data and does not seed again")
    func reopen() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reopen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("catalog.sqlite").path
        do {
            let store = try SQLiteCatalogStore(path: path)
            _ = try await store.createCategory(CategoryDraft(name: name("Books")))
        }
        let store = try SQLiteCatalogStore(path: path)
        #expect(
            try await store.listCategories(CategoryQuery()).map(\.name) == [
                "Family", "Cars", "Games", "Sports", "Books",
            ])
        try await assertInvariants(store)
    }
}

@Suite("SQLite store: opening")
struct OpeningTests {
    @Test("a database that cannot be opened is a storage error naming the path")
    func unopenable() throws {
        let path = "/nonexistent-\(UUID().uuidString)/catalog.sqlite"
        let error = #expect(throws: CatalogError.self) { try SQLiteCatalogStore(path: path) }
        #expect(error?.reason == "storage")
        #expect(error?.description.contains(path) == true)
    }
}
