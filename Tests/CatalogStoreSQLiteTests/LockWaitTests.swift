import CatalogAPI
import CatalogStore
import Foundation
import GRDB
import Testing

@testable import CatalogStoreSQLite

@Suite("Connections wait for a lock held by another", .timeLimit(.minutes(1)))
struct LockWaitTests {
    @Test("a write that meets the write lock held by another connection waits for it and succeeds")
    func writeWaitsForLock() async throws {
        LockWaitObserver.install()
        let store = try makeStore()
        let other = try DatabaseQueue(path: store.database.path)
        let (lockHeld, lockHeldSignal) = AsyncStream.makeStream(of: Void.self)
        let release = DispatchSemaphore(value: 0)
        let observer = try await LockWaitObserver(writerOf: store.database) { release.signal() }
        defer { observer.stop() }

        // The other connection holds the write lock until the store's write is seen waiting
        // for it (or has ended: a write that does not wait fails at once).
        async let holder: Void = other.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                lockHeldSignal.yield()
                release.wait()
                return .commit
            }
        }
        for await _ in lockHeld { break }

        let outcome: Result<Item, any Error>
        do { outcome = .success(try await store.createItem(ItemDraft(title: "waited"))) } catch { outcome = .failure(error) }
        release.signal()
        try await holder
        let item = try outcome.get()
        #expect(try store.itemNow(id: item.id).title == "waited")
    }
}
