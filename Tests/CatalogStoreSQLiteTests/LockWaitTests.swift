import CatalogAPI
import CatalogServices
import CatalogStore
import Foundation
import GRDB
import Testing

@testable import CatalogStoreSQLite

@Suite("Connections wait for a lock held by another")
struct LockWaitTests {
    @Test("a write that meets the write lock held by another connection waits for it and succeeds")
    func writeWaitsForLock() async throws {
        let store = try makeStore()
        let other = try DatabaseQueue(path: store.database.path)
        let (lockHeld, lockHeldSignal) = AsyncStream.makeStream(of: Void.self)
        let (writeStarted, writeStartedSignal) = AsyncStream.makeStream(of: Void.self)

        // The other connection holds the write lock until the store's write has begun, then a
        // little longer: long enough that a write which does not wait has already failed.
        async let holder: Void = other.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                lockHeldSignal.yield()
                let semaphore = DispatchSemaphore(value: 0)
                Task {
                    for await _ in writeStarted { break }
                    try? await Task.sleep(for: .milliseconds(300))
                    semaphore.signal()
                }
                semaphore.wait()
                return .commit
            }
        }
        for await _ in lockHeld { break }
        async let created = store.createItem(ItemDraft(title: "waited"))
        writeStartedSignal.yield()

        let outcome: Result<Item, any Error>
        do { outcome = .success(try await created) } catch { outcome = .failure(error) }
        try await holder
        let item = try outcome.get()
        #expect(try store.item(id: item.id).title == "waited")
    }
}
