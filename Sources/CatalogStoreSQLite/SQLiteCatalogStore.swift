import CatalogAPI
import CatalogStore
import Foundation
import GRDB
import Logging
import Synchronization

/// The catalog in an SQLite file through GRDB (WAL mode, foreign keys on).
///
/// Every write runs in one transaction; a `CatalogError` thrown inside it rolls everything back.
/// A dry run performs the same work in a transaction that is rolled back, so it answers exactly
/// what the real call would.
///
/// A failure of SQLite itself is logged at error level with its cause and answered INTERNAL
/// `storage`, or RESOURCE_EXHAUSTED `storageFull` when the file system is out of space. Once
/// the database file is deleted, moved or replaced under it, every write is UNAVAILABLE
/// `databaseMoved` and reads answer from the connections still open (see `DatabaseFileGuard`).
public final class SQLiteCatalogStore: SynchronousPointReads, Sendable {
    let database: DatabasePool
    let logger: Logger
    /// Read-only connections of their own for `pointRead`, outside the pool (see there).
    private let pointReaders: PointReaders
    /// Runs the WAL checkpoints; every checkpoint goes through it.
    let checkpointer: WALCheckpointer
    /// Counts the writer's jobs, so a short write can run on its caller (see `writeNowOrLater`).
    let writerGate = WriterGate()
    /// Every category, kept between writes to them (see `allCategories`).
    let categoryCache = CategoryCache()
    /// Items read by id, kept between writes to items.
    let itemCache = ItemCache()
    /// Told about every committed filter change (see `observeFilterChanges`).
    let filterObserver = Mutex<FilterObserver?>(nil)
    /// Each filter's committed state, for the writes that change it.
    let committedFilters = CommittedFilterStates()

    /// How long a connection waits for a lock another connection holds before it fails.
    ///
    /// Locks are held for microseconds here, but they are held: a connection that finds the
    /// WAL header mid-update takes the write lock for a moment to read it again, and the
    /// checkpointer takes its own lock. Without a wait, a write that meets one of them fails
    /// with "database is locked", rarely but under any sustained load.
    static let lockWait: TimeInterval = 5

    /// Opens (or creates) the database at `path` and migrates it; `logger` receives the
    /// store's failures.
    public init(path: String, logger: Logger = Logger(label: "catalog.store.sqlite")) throws(CatalogError) {
        self.logger = logger
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(Self.lockWait)
        do {
            database = try DatabasePool(path: path, configuration: configuration)
            try Self.migrator.migrate(database)
            DatabaseFileGuard.install(on: database, logger: logger)
            pointReaders = try PointReaders(
                path: path, configuration: configuration, count: ProcessInfo.processInfo.activeProcessorCount)
            checkpointer = try WALCheckpointer(path: path, writer: database, gate: writerGate, configuration: configuration)
            checkpointer.install()
            categoryCache.observeChanges(of: database)
            itemCache.observeChanges(of: database)
        } catch let error as DatabaseError {
            logger.error("cannot open the database", metadata: ["database": "\(path)", "cause": "\(error)"])
            throw CatalogError.storage("cannot open the database at \(path): \(error.resultCode)")
        } catch {
            throw Self.storeError(error, path: path, logger: logger)
        }
    }

    // MARK: Transactions

    /// Runs `body` in a read transaction (a snapshot), mapping errors.
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws(CatalogError) -> T {
        do {
            return try await database.read(body)
        } catch {
            throw storeError(error)
        }
    }

    /// Runs a point read (a primary-key lookup, microseconds) on the calling thread: two
    /// thread hops to GRDB's queue and back would cost more than the query. Anything that may
    /// scan goes through `read` instead, so it never holds up the caller's event loop.
    ///
    /// It reads through connections of its own, one per reading thread (with connections taken
    /// in turn, two event loops still met on one now and then and waited for each other),
    /// never one of the pool's: an async read holds
    /// a pooled reader while its task waits to resume on its event loop, so an event loop
    /// blocked waiting for a pooled reader could wait forever.
    /// Nothing holds a point reader across a suspension, so waiting for one always ends.
    ///
    /// `body` runs one statement, which SQLite reads from a snapshot of its own, so it gets no
    /// BEGIN and COMMIT around it (GRDB's `read` would add both: two more statements on every
    /// point read).
    func pointRead<T>(_ body: (Database) throws -> T) throws(CatalogError) -> T {
        do {
            return try pointReaders.read(body)
        } catch {
            throw storeError(error)
        }
    }

    /// Runs `body` in one write transaction, committed unless `dryRun` (then rolled back).
    func write<T: Sendable>(dryRun: Bool = false, _ body: @Sendable (Database) throws -> T) async throws(CatalogError)
        -> T
    {
        await writerGate.admit()
        defer { writerGate.jobEnded() }
        do {
            if !dryRun {
                return try await database.write(body)
            }
            return try await database.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction {
                    result = try body(db)
                    return .rollback
                }
                guard let result else { throw CatalogError.storage("dry run produced no result") }
                return result
            }
        } catch {
            throw storeError(error)
        }
    }

    /// Runs `body` in one write transaction: on the caller, without suspending, when the writer
    /// is idle (a short write started on an event loop then costs no thread hop), or queued
    /// behind the writer's other jobs like `write`. For writes of microseconds only: the caller
    /// waits for the first kind.
    func writeNowOrLater<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(CatalogError) -> T {
        let written: T?
        do {
            written = try writerGate.writeIfIdle { try database.write(body) }
        } catch {
            throw storeError(error)
        }
        if let written { return written }
        return try await write(body)
    }

    /// Keeps catalog errors; turns anything else into a storage error with a safe message,
    /// after logging its cause.
    func storeError(_ error: any Error) -> CatalogError {
        Self.storeError(error, path: database.path, logger: logger)
    }

    static func storeError(_ error: any Error, path: String, logger: Logger) -> CatalogError {
        if let error = error as? CatalogError { return error }
        if error is CancellationError { return CatalogError.storage("cancelled").causedBy(error) }
        let mapped = storageError(for: error, path: path).causedBy(error)
        logger.error(
            "store failure: \(mapped.rpcError.message)", metadata: ["database": "\(path)", "cause": "\(error)"])
        return mapped
    }

    /// The error a client sees for a failure of SQLite (or of GRDB around it).
    private static func storageError(for error: any Error, path: String) -> CatalogError {
        guard let error = error as? DatabaseError else { return .storage(String(describing: type(of: error))) }
        switch error.resultCode {
        case .SQLITE_FULL:
            return .storageFull
        case .SQLITE_IOERR where FileSystemSpace.isFull(at: path):
            // SQLite reports ENOSPC as SQLITE_FULL where it writes pages, but as an I/O error
            // where it grows the shared-memory index or syncs.
            return .storageFull
        case .SQLITE_CONSTRAINT:
            // The store checks every rule before writing; a constraint firing means a bug or
            // an outside writer. Report which kind without the SQL.
            return .storage("constraint violated (\(error.extendedResultCode))")
        default:
            return .storage("\(error.resultCode)")
        }
    }
}
