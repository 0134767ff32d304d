import GRDB
import Synchronization

/// Counts the commits that change some tables, and is odd while one is being committed: the
/// validity stamp of a cache of reads of those tables (a seqlock).
///
/// A read takes `current` before it begins. What it read may be kept only if that value was
/// even (`isStable`) and has not changed when the read is done, and a kept value is served
/// only while the count stays the same. So a cache never serves a state older than a write
/// already acknowledged (the writer moves the count before it returns), nor one older than
/// what another read already returned (no read that overlapped a commit is kept).
final class CommitGeneration: Sendable {
    private let value = Atomic<UInt64>(0)

    /// The count now; take it before the read begins.
    var current: UInt64 { value.load(ordering: .acquiring) }

    /// Whether no commit was under way at `generation`.
    static func isStable(_ generation: UInt64) -> Bool { generation & 1 == 0 }

    /// Moves the count around every commit of `database` that changes one of `tables`.
    func follow(_ tables: Set<String>, of database: DatabasePool) {
        database.add(transactionObserver: Observer(tables: tables, generation: self), extent: .databaseLifetime)
    }

    fileprivate func advance() {
        value.add(1, ordering: .sequentiallyConsistent)
    }

    /// Called by GRDB on the writer's queue, around each of its transactions.
    private final class Observer: TransactionObserver {
        let tables: Set<String>
        let generation: CommitGeneration
        private var changed = false
        private var committing = false

        init(tables: Set<String>, generation: CommitGeneration) {
            self.tables = tables
            self.generation = generation
        }

        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { tables.contains(eventKind.tableName) }

        func databaseDidChange(with event: DatabaseEvent) {
            changed = true
            stopObservingDatabaseChangesUntilNextTransaction()
        }

        /// Before the commit becomes visible to readers: odd.
        func databaseWillCommit() throws {
            guard changed else { return }
            committing = true
            generation.advance()
        }

        /// After it: even again.
        func databaseDidCommit(_ db: Database) {
            end()
        }

        func databaseDidRollback(_ db: Database) {
            end()
        }

        private func end() {
            if committing { generation.advance() }
            committing = false
            changed = false
        }
    }
}
