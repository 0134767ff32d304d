import CatalogAPI
import Foundation
import RPCCore
import Testing

@Suite("A database file deleted under the running server")
struct DatabaseFileGoneTests {
    @Test("writes are UNAVAILABLE databaseMoved instead of acknowledged and lost; reads go on")
    func deletedFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-deleted-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withCatalogServer(databaseIn: directory) { server in
            let kept = try await server.createCategory("Kept")
            _ = try await server.snapshot()
            try FileManager.default.removeItem(at: directory.appendingPathComponent("catalog.sqlite"))

            try await server.expectError(
                CategoriesService.create, CreateCategoryRequest(name: "Lost"), .unavailable, reason: "databaseMoved")
            try await server.expectError(
                FiltersService.select, SelectFilterRequest(filterId: "categories", optionId: kept.id), .unavailable,
                reason: "databaseMoved")
            #expect(try await server.categories().map(\.name) == ["Family", "Cars", "Games", "Sports", "Kept"])
        }
    }
}
