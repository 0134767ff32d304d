import CatalogAPI
import CatalogServer
import Foundation
import Testing

@testable import CatalogStoreSQLite

@Suite("SQLite store: random operations")
struct RandomizedStoreTests {
    @Test("300 random operations, failing ones included, always leave the invariants true", arguments: [UInt64(1), 42])
    func randomOperations(seed: UInt64) async throws {
        let store = try makeStore()
        var random = SeededGenerator(seed: seed)
        let names = ["Books", "Films", "Music", "Art", "Food", "Travel", "Family", "Cars"]
        var outcomes = (succeeded: 0, failed: 0)
        for step in 0..<300 {
            let categories = try await store.listCategories(CategoryQuery()).map(\.id)
            let items = try await store.listItems(ItemQuery(pageSize: 500)).items.map(\.id)
            // Mostly existing ids, sometimes a missing one.
            func categoryID() -> Int64 {
                Int.random(in: 0..<10, using: &random) == 0 ? 9999 : categories.randomElement(using: &random)!
            }
            func itemID() -> Int64 {
                Int.random(in: 0..<10, using: &random) == 0 || items.isEmpty
                    ? 8888 : items.randomElement(using: &random)!
            }
            let before = try await snapshot(store)
            let dryRun = Bool.random(using: &random) && Bool.random(using: &random)
            var failed = false
            var usedDryRun = false
            do throws(CatalogError) {
                switch Int.random(in: 0..<12, using: &random) {
                case 0:
                    _ = try await store.createCategory(CategoryDraft(name: name(names.randomElement(using: &random)!)))
                case 1:
                    _ = try await store.updateCategory(
                        id: categoryID(), CategoryChanges(name: name(names.randomElement(using: &random)!)),
                        expectedRevision: Bool.random(using: &random) ? nil : Int64.random(in: 1...3, using: &random))
                case 2:
                    let policy = DeleteItemsPolicy.allCases.randomElement(using: &random)!
                    usedDryRun = dryRun
                    _ = try await store.deleteCategory(
                        CategoryDeletion(
                            id: categoryID(), items: policy, moveTo: policy == .move ? categoryID() : nil,
                            dryRun: dryRun))
                case 3:
                    let target: MoveTarget =
                        Bool.random(using: &random)
                        ? .step(Bool.random(using: &random) ? .up : .down)
                        : .position(Int.random(in: -1...categories.count, using: &random))
                    _ = try await store.moveCategory(id: categoryID(), to: target)
                case 4:
                    usedDryRun = dryRun
                    _ = try await store.mergeCategories(
                        sourceIDs: [categoryID(), categoryID()], into: categoryID(), dryRun: dryRun)
                case 5:
                    usedDryRun = dryRun
                    _ = try await store.assignItems(
                        [itemID(), itemID()], to: Bool.random(using: &random) ? categoryID() : nil, dryRun: dryRun)
                case 6:
                    _ = try await store.moveItems(from: categoryID(), to: categoryID())
                case 7, 8:
                    _ = try await store.createItem(
                        ItemDraft(title: "item \(step)", categoryID: Bool.random(using: &random) ? categoryID() : nil))
                case 9:
                    _ = try await store.updateItem(
                        id: itemID(), ItemChanges(categoryID: Bool.random(using: &random) ? .set(categoryID()) : .clear)
                    )
                case 10:
                    try await store.deleteItem(id: itemID())
                default:
                    let records = names.shuffled(using: &random).prefix(3).map {
                        CategoryImport(name: name($0), color: "#123456", position: 0, isDefault: false)
                    }
                    usedDryRun = dryRun
                    _ = try await store.importCategories(
                        Array(records), mode: Bool.random(using: &random) ? .merge : .replace, dryRun: dryRun)
                }
            } catch {
                failed = true
                #expect(error.reason != "storage", "step \(step): \(error)")
            }
            if failed { outcomes.failed += 1 } else { outcomes.succeeded += 1 }
            if failed || usedDryRun {
                #expect(try await snapshot(store) == before, "step \(step) changed the store without succeeding")
            }
            try await assertInvariants(store)
        }
        // Both kinds of outcome were exercised.
        #expect(outcomes.succeeded > 100, "\(outcomes)")
        #expect(outcomes.failed > 20, "\(outcomes)")
    }
}
