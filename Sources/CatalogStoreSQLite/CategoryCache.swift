import CatalogAPI
import GRDB
import Synchronization

/// Every category in position order, kept from one read to the next until a transaction that
/// changes the category table commits.
///
/// Categories.List answers every category: at 10 000 of them, reading and ordering the rows
/// in SQLite was most of the call. A read takes `generation` before its transaction begins
/// and keeps what it read only if no change committed since, so the kept list is never older
/// than a write already acknowledged: the writer bumps the generation before it returns.
final class CategoryCache: Sendable {
    private let currentGeneration = Atomic<UInt64>(0)
    private let kept = Mutex<(generation: UInt64, categories: [Category])?>(nil)

    /// The generation to pass to `categories(at:)` and `keep(_:readAt:)`; take it before the
    /// read's transaction begins.
    var generation: UInt64 { currentGeneration.load(ordering: .acquiring) }

    /// The kept categories, if they are those of `generation`.
    func categories(at generation: UInt64) -> [Category]? {
        kept.withLock { kept in kept?.generation == generation ? kept?.categories : nil }
    }

    /// Keeps `categories`, read by a transaction begun at `generation`, unless a change committed since.
    func keep(_ categories: [Category], readAt generation: UInt64) {
        kept.withLock { kept in
            if currentGeneration.load(ordering: .acquiring) == generation { kept = (generation, categories) }
        }
    }

    /// Installs the observer that bumps the generation on the writer of `database`.
    func observeChanges(of database: DatabasePool) {
        database.add(transactionObserver: ChangeObserver(cache: self), extent: .databaseLifetime)
    }

    fileprivate func invalidate() {
        kept.withLock { kept in
            currentGeneration.add(1, ordering: .releasing)
            kept = nil
        }
    }

    /// Called by GRDB on the writer's queue, around each of its transactions.
    private final class ChangeObserver: TransactionObserver {
        let cache: CategoryCache
        private var changed = false

        init(cache: CategoryCache) { self.cache = cache }

        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { eventKind.tableName == "category" }

        func databaseDidChange(with event: DatabaseEvent) {
            changed = true
            stopObservingDatabaseChangesUntilNextTransaction()
        }

        func databaseDidCommit(_ db: Database) {
            if changed { cache.invalidate() }
            changed = false
        }

        func databaseDidRollback(_ db: Database) {
            changed = false
        }
    }
}
