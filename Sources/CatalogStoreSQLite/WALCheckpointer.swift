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
/// everything and SQLite cannot start the WAL over; once it reaches `inlinePages`, the writer
/// checkpoints itself as SQLite would, so the WAL stays bounded.
final class WALCheckpointer: Sendable {
    static let backgroundPages: Int32 = 1000
    static let inlinePages: Int32 = 10_000

    private let connection: DatabaseQueue
    private let running = Atomic(false)
    /// How many of the WAL's pages the last background checkpoint copied.
    private let copiedPages = Atomic<Int32>(0)

    /// Opens the checkpointing connection to the database at `path`.
    init(path: String) throws {
        connection = try DatabaseQueue(path: path)
    }

    /// Installs the hook on the writer connection `db` (replacing SQLite's automatic checkpoints).
    func install(on db: Database) {
        sqlite3_wal_hook(db.sqliteConnection, { context, connection, _, pages in
            guard let context else { return SQLITE_OK }
            Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue().committed(walPages: pages, on: connection)
            return SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Called on the writer after each commit, with the pages now in the WAL.
    private func committed(walPages pages: Int32, on writer: OpaquePointer?) {
        var copied = copiedPages.load(ordering: .relaxed)
        if pages < copied {  // the WAL started over
            copied = 0
            copiedPages.store(0, ordering: .relaxed)
        }
        if pages >= Self.inlinePages {
            sqlite3_wal_checkpoint_v2(writer, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        } else if pages - copied >= Self.backgroundPages,
            running.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
        {
            Task.detached { [self] in
                // A failed PASSIVE checkpoint loses nothing: a later commit starts another.
                if let result = try? await connection.writeWithoutTransaction({ try $0.checkpoint(.passive) }) {
                    copiedPages.store(Int32(clamping: result.checkpointedFrameCount), ordering: .relaxed)
                }
                running.store(false, ordering: .releasing)
            }
        }
    }
}
