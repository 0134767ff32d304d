import CatalogStore
import Foundation
import GRDB
import StoreTestSupport
import Synchronization
import Testing

@testable import CatalogStoreSQLite

@Suite("The benchmark seed")
struct BenchmarkSeedTests {
    @Test("seeding a fresh store waits for the background checkpoint its own commit started")
    func seedMeetsBackgroundCheckpoint() async throws {
        let store = try makeStore()
        let holdUntilCopying = HoldUntilCheckpointCopies(databasePath: store.database.path)
        store.database.add(transactionObserver: holdUntilCopying, extent: .nextTransaction)

        // 15 000 items commit more pages than `WALCheckpointer.backgroundPages`.
        let summary = try await store.seedForBenchmark(categories: 1000, items: 15_000, largeCategoryItems: 1500)
        #expect(summary.itemCount == 15_000)
        #expect(holdUntilCopying.sawCopying, "the seed's commit started no background checkpoint")
        try await assertInvariants(store)
    }

    @Test("the benchmark seed leaves the built-in filter mirroring the seeded categories")
    func seedMirroredByBuiltinFilter() async throws {
        let store = try makeStore()
        let recorder = FilterChangeRecorder(store)
        let summary = try await store.seedForBenchmark(categories: 30, items: 40, largeCategoryItems: 10)
        let filter = try #require(try await store.filters().first { $0.filterId == FilterRules.builtinFilterID })
        #expect(filter.options.count == summary.categoryCount)
        #expect(filter.revision == 2)
        #expect(recorder.changes == [.updated(filter)])
        try await assertInvariants(store)
    }
}

/// Holds the writer after the next commit until a checkpoint is copying pages into the
/// database file (the file grows), so that whatever the writer does next meets it.
private final class HoldUntilCheckpointCopies: TransactionObserver, Sendable {
    private let databasePath: String
    private let copying = Atomic(false)

    init(databasePath: String) {
        self.databasePath = databasePath
    }

    var sawCopying: Bool { copying.load(ordering: .relaxed) }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidRollback(_ db: Database) {}

    func databaseDidCommit(_ db: Database) {
        let sizeAtCommit = size()
        let giveUp = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < giveUp {
            if size() > sizeAtCommit { return copying.store(true, ordering: .relaxed) }
            usleep(20)
        }
    }

    private func size() -> Int {
        (try? FileManager.default.attributesOfItem(atPath: databasePath)[.size] as? Int) ?? 0
    }
}
