import CatalogAPI
import Foundation
import RPCCore
import Testing

@Suite("Concurrent writes over one connection")
struct ConcurrentWriteTests {
    @Test("concurrent creates, moves, assignments and deletes leave positions dense and every count right")
    func concurrentWrites() async throws {
        try await withCatalogServer { server in
            let client = server.client
            let family = try await server.category(named: "Family")
            let items = try await server.createItems(12, in: family.id)
            let created = try await withThrowingTaskGroup(of: Category.self) { group in
                for index in 0..<12 {
                    group.addTask { try await client.unary(CategoriesService.create, CreateCategoryRequest(name: "Parallel \(index)")) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(created.map(\.position)) == Set(4..<16))
            try await server.checkInvariants()

            await withTaskGroup(of: Void.self) { group in
                for (index, category) in created.enumerated() {
                    group.addTask {
                        _ = try? await client.unary(
                            CategoriesService.assignItems, AssignItemsRequest(itemIds: [items[index].id], categoryId: category.id))
                        _ = try? await client.unary(CategoriesService.move, MoveCategoryRequest(id: category.id, toPosition: index % 5))
                        if index % 2 == 0 {
                            _ = try? await client.unary(CategoriesService.delete, DeleteCategoryRequest(id: category.id, items: .unassign))
                        }
                    }
                }
            }
            try await server.checkInvariants()
            let categories = try await server.categories()
            #expect(categories.count == 4 + 6)
            #expect(try await server.allItems().count == 12)
        }
    }
}
