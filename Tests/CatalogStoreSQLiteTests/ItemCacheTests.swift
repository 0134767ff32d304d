import CatalogAPI
import CatalogStore
import Foundation
import StoreTestSupport
import Synchronization
import Testing

@testable import CatalogStoreSQLite

/// GetItem's point reads are kept between writes to items: never older than an acknowledged
/// write, never older than what another read already returned.
@Suite("SQLite store: kept items", .timeLimit(.minutes(1)))
struct ItemCacheTests {
    @Test("a read after each kind of item write sees that write")
    func readsAfterWrites() async throws {
        let store = try makeStore()
        let books = try await store.createCategory(CategoryDraft(name: name("Books")))
        let item = try await store.createItem(ItemDraft(title: "First", categoryID: books.id))
        #expect(try store.itemNow(id: item.id).title == "First")
        #expect(try store.itemNow(id: item.id).title == "First", "a second read, kept")

        _ = try await store.updateItem(id: item.id, ItemChanges(title: "Second"))
        #expect(try store.itemNow(id: item.id).title == "Second")

        // A category write that changes items: the item is unassigned in the same transaction.
        _ = try await store.deleteCategory(CategoryDeletion(id: books.id, items: .unassign))
        #expect(try store.itemNow(id: item.id).categoryId == nil)

        try await store.deleteItem(id: item.id)
        #expect(throws: CatalogError.self) { try store.itemNow(id: item.id) }
    }

    @Test("a dry run changes nothing that is read")
    func dryRun() async throws {
        let store = try makeStore()
        let books = try await store.createCategory(CategoryDraft(name: name("Books")))
        let item = try await store.createItem(ItemDraft(title: "Kept", categoryID: books.id))
        #expect(try store.itemNow(id: item.id).categoryId == books.id)
        _ = try await store.assignItems([item.id], to: nil, dryRun: true)
        #expect(try store.itemNow(id: item.id).categoryId == books.id)
    }

    /// The last version the writer saw acknowledged.
    final class Acknowledged: Sendable {
        let version = Atomic<Int>(0)
    }

    @Test("readers racing a writer never see a title older than the last acknowledged one, nor go backwards")
    func racingWriter() async throws {
        let store = try makeStore()
        let item = try await store.createItem(ItemDraft(title: "0"))
        let acknowledged = Acknowledged()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for version in 1...300 {
                    _ = try await store.updateItem(id: item.id, ItemChanges(title: "\(version)"))
                    acknowledged.version.store(version, ordering: .sequentiallyConsistent)
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    var last = 0
                    while last < 300 {
                        let floor = acknowledged.version.load(ordering: .sequentiallyConsistent)
                        let version = try #require(Int(try store.itemNow(id: item.id).title))
                        #expect(version >= floor, "acknowledged \(floor), read \(version)")
                        #expect(version >= last, "read \(last), then \(version)")
                        last = version
                        // Reads do not suspend: without a yield, readers would hold every
                        // thread of the pool and the writer would never resume.
                        await Task.yield()
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test("at most `capacity` items are kept")
    func capacity() {
        let cache = ItemCache()
        let generation = cache.generation
        let date = Date(timeIntervalSince1970: 0)
        for id in 1...Int64(ItemCache.capacity + 10) {
            cache.keep(Item(id: id, title: "\(id)", createdAt: date, updatedAt: date), readAt: generation)
        }
        let kept = (1...Int64(ItemCache.capacity + 10)).filter { cache.item($0, at: generation) != nil }
        #expect(kept.count == ItemCache.capacity)
        #expect(cache.item(Int64(ItemCache.capacity + 10), at: generation) != nil, "the last one kept made room")
    }
}
