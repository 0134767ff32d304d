import GRDB
import GRDBSQLite
import Synchronization

/// Runs the WAL checkpoints, and so their fsyncs, beside the writer instead of inside its commits.
///
/// SQLite checkpoints on the committing connection once the WAL holds 1000 pages, and the
/// fsyncs of that checkpoint (several milliseconds) stall every write queued behind it. With
/// this hook installed on the writer, a commit that leaves `backgroundPages` more pages in the
/// WAL than the last checkpoint copied starts a PASSIVE checkpoint on a connection of its own,
/// which copies them while the writer goes on. While writes keep coming, no checkpoint copies
/// everything and SQLite cannot start the WAL over; once it reaches `writerPages`, the writer
/// checkpoints as its next job, before any write queued after this one, so the WAL stays
/// bounded, and the write that crossed the line (a merge of 100 000 items) does not wait for it.
///
/// Every checkpoint of the store goes through `checkpoint(_:)`, which runs one at a time:
/// SQLite lets one connection checkpoint at once and fails any other at once with
/// SQLITE_BUSY ("database is locked"), without calling the busy handler.
final class WALCheckpointer: Sendable {
    static let backgroundPages: Int32 = 1000
    static let writerPages: Int32 = 10_000

    private let connection: DatabaseQueue
    private let writer: DatabasePool
    private let gate: WriterGate
    private let running = Atomic(false)
    private let writerCheckpointQueued = Atomic(false)
    /// How many of the WAL's pages the last background checkpoint copied.
    private let copiedPages = Atomic<Int32>(0)
    /// Held by the checkpoint under way.
    private let checkpointLock = Mutex(())

    /// Opens the checkpointing connection to the database at `path`, whose writer is `writer`,
    /// with its jobs counted by `gate`.
    init(path: String, writer: DatabasePool, gate: WriterGate, configuration: Configuration) throws {
        connection = try DatabaseQueue(path: path, configuration: configuration)
        self.writer = writer
        self.gate = gate
    }

    /// Installs the hook on the writer connection (replacing SQLite's automatic checkpoints).
    func install() {
        writer.writeWithoutTransaction { db in
            _ = sqlite3_wal_hook(db.sqliteConnection, { context, _, _, pages in
                guard let context else { return SQLITE_OK }
                Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue().committed(walPages: pages)
                return SQLITE_OK
            }, Unmanaged.passUnretained(self).toOpaque())
        }
    }

    /// Called on the writer after each commit, with the pages now in the WAL.
    private func committed(walPages pages: Int32) {
        var copied = copiedPages.load(ordering: .relaxed)
        if pages < copied {  // the WAL started over
            copied = 0
            copiedPages.store(0, ordering: .relaxed)
        }
        if pages >= Self.writerPages {
            if writerCheckpointQueued.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
                gate.submit { [self] in
                    writer.asyncWriteWithoutTransaction { [self] db in
                        _ = try? checkpoint(db)
                        writerCheckpointQueued.store(false, ordering: .releasing)
                        gate.jobEnded()
                    }
                }
            }
        } else if pages - copied >= Self.backgroundPages,
            running.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
        {
            Task.detached { [self] in
                // A failed PASSIVE checkpoint loses nothing: a later commit starts another.
                if let result = try? await connection.writeWithoutTransaction({ try self.checkpoint($0) }) {
                    copiedPages.store(Int32(clamping: result.checkpointedFrameCount), ordering: .relaxed)
                }
                running.store(false, ordering: .releasing)
            }
        }
    }

    /// Runs a PASSIVE checkpoint on `db` (the writer or the checkpointing connection), after
    /// the one under way, if any, has ended.
    @discardableResult
    func checkpoint(_ db: Database) throws -> (walFrameCount: Int, checkpointedFrameCount: Int) {
        try checkpointLock.withLock { _ in try db.checkpoint(.passive) }
    }
}
