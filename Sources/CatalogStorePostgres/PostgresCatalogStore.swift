import CatalogAPI
import CatalogStore
import Foundation
import Logging
import PostgresNIO
import RPCCore
import Synchronization

/// The catalog in a PostgreSQL database, through a postgres-nio connection pool. Any number of
/// processes may serve the same database: each is a replica of one catalog.
///
/// Every write is one transaction. Category and item writes take one transaction-scoped
/// advisory lock, so they run one at a time across every replica (as SQLite's single writer
/// does) and each sees the last one's result; filter writes lock the filter's head row and
/// take the next revision from it. A dry run performs the same work and rolls back.
///
/// Each write that changes a filter sends a notification (`NOTIFY catalog`) in its
/// transaction, which PostgreSQL delivers at commit, in commit order. Every replica listens on
/// a connection of its own (see `ChangeListener`), reads each notified filter's new states
/// once and tells its observer, so a Watch on any replica sees every change.
///
/// When the database cannot be reached, calls answer UNAVAILABLE `databaseUnavailable`; any
/// other failure of PostgreSQL is logged at error level and answered INTERNAL `storage`.
public final class PostgresCatalogStore: CatalogStore, FilterStore, ReachabilityReporting, Sendable {
    /// How the store keeps up with the other replicas.
    public struct Settings: Sendable {
        /// How often every filter's head revision is compared with what was delivered: the
        /// safety net under the notifications.
        public var headCheckInterval: Duration = .seconds(1)
        /// The longest wait between two attempts to listen again after the listening
        /// connection was lost.
        public var maxReconnectDelay: Duration = .seconds(1)
        /// The longest a call waits for a pooled connection before it answers UNAVAILABLE.
        public var connectionWait: Duration = .seconds(3)
        /// The longest a statement waits for PostgreSQL's answer: then its connection is
        /// closed and the call answers UNAVAILABLE. Long enough for the heaviest write of a
        /// large catalog (a merge of 100 000 items takes about 3 s).
        public var statementTimeout: Duration = .seconds(10)

        public init() {}
    }

    let client: PostgresClient
    let location: PostgresLocation
    let logger: Logger
    let settings: Settings
    /// Every category, kept between writes to them (see `allCategories`).
    let categoryCache = CategoryCache()
    /// Items read by id, kept between writes to items.
    let itemCache = ItemCache()
    /// What the observer was told, filter by filter.
    let feed = FilterFeed()
    /// This replica's name in its notices, so that its listener passes over its own.
    let replicaID = UUID().uuidString
    /// False while the listener fails to connect: calls then answer UNAVAILABLE at once.
    /// Set through `setReachable(_:)`.
    let reachable = Atomic<Bool>(true)
    /// The followers of `reachabilityChanges()`.
    private let reachability = ValueBroadcast(true)

    private init(location: PostgresLocation, settings: Settings, logger: Logger) {
        self.location = location
        self.settings = settings
        self.logger = logger
        self.client = PostgresClient(configuration: location.clientConfiguration, backgroundLogger: logger)
    }

    /// Connects to the database at `location`, brings its schema up to date, starts following
    /// the other replicas' changes, and runs `body` with the store; all stops when `body`
    /// returns or throws.
    ///
    /// - Throws: `PostgresConnectError` when no connection can be made (the server is down,
    ///   the credentials or the database name are wrong); `PostgresSchemaError` when the schema
    ///   cannot be migrated or belongs to a newer catalogd; whatever `body` throws.
    public static func withStore<T: Sendable>(
        at location: PostgresLocation, settings: Settings = Settings(),
        logger: Logger = Logger(label: "catalog.store.postgres"),
        _ body: (PostgresCatalogStore) async throws -> T
    ) async throws -> T {
        // The pool would wait for a connection as long as it takes: try one first, so that a
        // server that cannot be reached fails the start instead.
        do {
            let probe = try await PostgresConnection.connect(configuration: location.connectionConfiguration, id: 0, logger: logger)
            try await probe.close()
        } catch {
            throw PostgresConnectError(location: location, cause: error)
        }
        let store = PostgresCatalogStore(location: location, settings: settings, logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await store.client.run() }
            do {
                _ = try await PostgresMigrator(PostgresSchema.migrations).migrate(store.client, logger: logger)
            } catch let error as PostgresSchemaError {
                throw error
            } catch {
                throw store.storeError(error)
            }
            // The body starts once the listener has caught up, so the observer is told only
            // about changes committed from then on.
            let (started, start) = AsyncStream.makeStream(of: Void.self)
            group.addTask {
                await ChangeListener(store: store) { start.finish() }.run()
            }
            for await _ in started {}
            let result = try await body(store)
            group.cancelAll()
            return result
        }
    }

    // MARK: Transactions

    /// One transaction's connection (or a read's, outside any transaction), and what it changed.
    final class Transaction {
        let connection: PostgresConnection
        let logger: Logger
        private let store: PostgresCatalogStore
        /// The longest each statement waits for its answer.
        let timeout: Duration
        /// Whether a statement was sent on the connection yet (a `BEGIN` counts).
        private var used: Bool
        /// The filter changes it made, in order, for the observer once it commits.
        private(set) var filterChanges: [CommittedFilterChange] = []
        /// The caches of the tables it changes, put aside until it ends; `nil` outside a write.
        private let cachesChanged: ChangedCaches?

        /// `inTransaction`: its statements follow a `BEGIN` sent on `connection`.
        init(
            connection: PostgresConnection, store: PostgresCatalogStore, timeout: Duration, inTransaction: Bool,
            cachesChanged: ChangedCaches? = nil
        ) {
            self.connection = connection
            self.logger = store.logger
            self.store = store
            self.timeout = timeout
            self.used = inTransaction
            self.cachesChanged = cachesChanged
        }

        /// Runs one statement and returns its rows (see `PostgresConnection.roundTrip`). The
        /// first statement on a connection found closed before it was sent throws
        /// `ConnectionLostBeforeUse`.
        @discardableResult
        func query(_ query: PostgresQuery) async throws -> [PostgresRow] {
            let first = !used
            used = true
            do {
                return try await connection.roundTrip(query, timeout: timeout, logger: logger)
            } catch RoundTripError.connectionClosed where first {
                throw ConnectionLostBeforeUse(cause: RoundTripError.connectionClosed)
            }
        }

        /// Runs one `UPDATE` or `DELETE` and returns how many rows it changed.
        func changedRows(_ statement: PostgresQuery) async throws -> Int {
            var counted = statement
            counted.sql = "WITH changed AS (\(statement.sql) RETURNING 1) SELECT count(*) FROM changed"
            return try await query(counted).first?.decode(Int.self) ?? 0
        }

        /// The catalog revision this write took at its first change to an item.
        private var catalogRevision: Int64?

        /// The write's catalog revision, taken at its first call: the revision after the last
        /// committed one, shared by every change to an item that the write makes. A write that
        /// changes no item takes none; the catalog lock makes them gap-free.
        func itemRevision() async throws -> Int64 {
            if let catalogRevision { return catalogRevision }
            guard let revision = try await query("UPDATE catalog_revision SET revision = revision + 1 RETURNING revision").first?
                .decode(Int64.self)
            else { throw CatalogError.storage("the catalog revision row is missing") }
            catalogRevision = revision
            return revision
        }

        /// Takes the lock that every category and item write holds until it ends.
        func lockCatalog() async throws {
            try await query("SELECT pg_advisory_xact_lock(\(PostgresCatalogStore.catalogLockKey))")
        }

        /// Records that the categories change: tells the other replicas at commit, and stops
        /// this one's cache from keeping a read until the transaction ends.
        func categoriesChange() async throws {
            try await changes(store.categoryCache.generation, notice: .categories)
        }

        /// Records that items change, as `categoriesChange()` does for categories.
        func itemsChange() async throws {
            try await changes(store.itemCache.generation, notice: .items)
        }

        private func changes(_ generation: CacheGeneration, notice: ChangeNotice) async throws {
            guard let cachesChanged else { throw CatalogError.storage("a write outside a write transaction") }
            guard cachesChanged.insert(generation) else { return }
            generation.commitBegins()
            try await query("SELECT pg_notify(\(ChangeNotice.channel), \(notice.payload(from: store.replicaID)))")
        }

        /// Records a filter change whose statements (notice included) ran: this replica's
        /// observer is told once it commits.
        func filterChanged(_ change: CommittedFilterChange) {
            filterChanges.append(change)
        }
    }

    /// The advisory lock category and item writes take (a constant: "catalogw" in ASCII),
    /// distinct from the migrator's.
    static let catalogLockKey: Int64 = 0x63_61_74_61_6C_6F_67_77

    /// A filter change a transaction made, as the feed takes it.
    enum CommittedFilterChange: Sendable {
        case updated(FilterState, FilterStep)
        /// Deleted at `revision`, which stays reserved.
        case deleted(filterID: String, revision: Int64)
    }

    /// The caches whose tables a write transaction changed, each told once when it ends.
    final class ChangedCaches: Sendable {
        private let generations = Mutex<[CacheGeneration]>([])

        /// Adds `generation`; `false` when it was already there.
        func insert(_ generation: CacheGeneration) -> Bool {
            generations.withLock { generations in
                if generations.contains(where: { $0 === generation }) { return false }
                generations.append(generation)
                return true
            }
        }

        func commitsEnded() {
            for generation in generations.withLock({ $0 }) { generation.commitEnds() }
        }
    }

    /// Whether the listener could connect: calls wait for a connection only while it could.
    func setReachable(_ reachable: Bool) {
        self.reachable.store(reachable, ordering: .relaxed)
        reachability.publish(reachable, finishing: false)
    }

    /// Whether PostgreSQL can be reached now (the listener's last connection attempt
    /// succeeded), then each change.
    public func reachabilityChanges() -> AsyncStream<Bool> {
        reachability.stream()
    }

    /// Whether the listener is connected: the caches keep reads only while it is.
    func setListening(_ listening: Bool) {
        categoryCache.generation.setListening(listening)
        itemCache.generation.setListening(listening)
    }

    /// Runs `body` in one transaction, committed unless `dryRun` (then rolled back); once
    /// committed, the observer is told about its filter changes before this returns. Each
    /// statement waits at most `timeout` (default `Settings.statementTimeout`).
    func write<T: Sendable>(
        dryRun: Bool = false, timeout: Duration? = nil, _ body: @Sendable (Transaction) async throws -> T
    ) async throws(CatalogError) -> T {
        let outcome: (result: T, changes: [CommittedFilterChange])
        let cachesChanged = ChangedCaches()
        defer { cachesChanged.commitsEnded() }
        do {
            outcome = try await withConnection { connection in
                let transaction = Transaction(
                    connection: connection, store: self, timeout: timeout ?? self.settings.statementTimeout, inTransaction: true,
                    cachesChanged: cachesChanged)
                return try await connection.transaction(commit: !dryRun, timeout: transaction.timeout, logger: self.logger) {
                    let result = try await body(transaction)
                    // A dry run is rolled back: nothing of it is told.
                    return (result, dryRun ? [] : transaction.filterChanges)
                }
            }
        } catch {
            throw storeError(error)
        }
        await deliver(outcome.changes)
        return outcome.result
    }

    /// Runs `body` on a pooled connection. The pool waits for a connection as long as it
    /// takes, even with the database down; here the wait ends after
    /// `Settings.connectionWait` (a call then answers UNAVAILABLE), and no call waits at all
    /// while the listener cannot connect.
    ///
    /// The pool may lend a connection that was lost a moment before (it learns of a closed
    /// connection only after): when `body`'s `BEGIN` meets a lost connection, or its first
    /// statement finds it closed before it is sent, nothing was done on it, and `body` runs
    /// once more on another.
    private func withConnection<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        guard reachable.load(ordering: .relaxed) else { throw CatalogError.databaseUnavailable }
        let lease = Lease()
        // The group ends before this returns, so `body` does not outlive the call.
        return try await withoutActuallyEscaping(body) { body in
            try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask {
                    let run = { @Sendable in
                        try await self.client.withConnection { connection in
                            lease.taken.store(true, ordering: .relaxed)
                            do {
                                return try await body(connection)
                            } catch let lost as ConnectionLostBeforeUse {
                                // Back to the pool only once it is closed, so that it is not lent again.
                                connection.closeWithoutWaiting()
                                try? await connection.closeFuture.get()
                                throw lost
                            }
                        }
                    }
                    do {
                        return try await run()
                    } catch is ConnectionLostBeforeUse {
                        lease.taken.store(false, ordering: .relaxed)
                        return try await run()
                    }
                }
                group.addTask {
                    try await Task.sleep(for: self.settings.connectionWait)
                    if lease.taken.load(ordering: .relaxed) { return nil }
                    throw CatalogError.databaseUnavailable
                }
                defer { group.cancelAll() }
                while let result = try await group.next() {
                    if let result { return result }
                }
                throw CatalogError.storage("a connection's work ended without a result")
            }
        }
    }

    /// Whether a pooled connection was handed out.
    private final class Lease: Sendable {
        let taken = Atomic<Bool>(false)
    }

    /// Runs `body` on a pooled connection, outside any transaction: for reads, each statement
    /// of which sees what was committed when it began.
    func read<T: Sendable>(timeout: Duration? = nil, _ body: @Sendable (Transaction) async throws -> T) async throws(CatalogError) -> T {
        do {
            return try await withConnection { connection in
                try await body(
                    Transaction(
                        connection: connection, store: self, timeout: timeout ?? self.settings.statementTimeout, inTransaction: false))
            }
        } catch {
            throw storeError(error)
        }
    }

    /// Runs `body` in a read-only transaction that sees one snapshot throughout.
    func readSnapshot<T: Sendable>(_ body: @Sendable (Transaction) async throws -> T) async throws(CatalogError) -> T {
        do {
            return try await withConnection { connection in
                let transaction = Transaction(
                    connection: connection, store: self, timeout: self.settings.statementTimeout, inTransaction: true)
                return try await connection.transaction(timeout: transaction.timeout, logger: self.logger) {
                    try await transaction.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                    return try await body(transaction)
                }
            }
        } catch {
            throw storeError(error)
        }
    }

    // MARK: Errors

    /// Keeps catalog errors; turns anything else into UNAVAILABLE when the database cannot be
    /// reached, else into a storage error with a safe message, after logging its cause.
    func storeError(_ error: any Error) -> CatalogError {
        let error = (error as? ConnectionLostBeforeUse)?.cause ?? error
        if let error = error as? CatalogError { return error }
        if error is CancellationError { return CatalogError.storage("cancelled").causedBy(error) }
        if Self.isUnreachable(error) {
            logger.warning("database unreachable", metadata: ["database": "\(location)", "cause": "\(error)"])
            return CatalogError.databaseUnavailable.causedBy(error)
        }
        let sqlState = (error as? PSQLError)?.serverInfo?[.sqlState]
        let mapped = CatalogError.storage(sqlState.map { "PostgreSQL error \($0)" } ?? String(describing: type(of: error)))
            .causedBy(error)
        logger.error(
            "store failure: \(mapped.rpcError.message)",
            metadata: ["database": "\(location)", "cause": "\(String(reflecting: error))"])
        return mapped
    }

    /// Whether `error` says the database is out of reach rather than that a statement failed:
    /// no connection, a connection lost or gone silent, or a server shutting down or starting up.
    static func isUnreachable(_ error: any Error) -> Bool {
        if case .timedOut = error as? RoundTripError { return true }
        return isConnectionLost(error)
    }

    /// Whether `error` says the connection is gone: closed, reset, refused, or ended by a
    /// server shutting down or starting up.
    static func isConnectionLost(_ error: any Error) -> Bool {
        if case .connectionClosed = error as? RoundTripError { return true }
        if error is ChannelError || error is IOError { return true }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed:
            return true
        case .server:
            // Class 08: connection exception; 57P01–57P03: shutdown and start-up.
            guard let state = error.serverInfo?[.sqlState] else { return false }
            return state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
        default:
            return false
        }
    }
}

/// No connection could be made to the database at start-up.
public struct PostgresConnectError: Error, CustomStringConvertible {
    public let location: PostgresLocation
    /// Why, as PostgreSQL or the socket said it.
    public let reason: String

    init(location: PostgresLocation, cause: any Error) {
        self.location = location
        if let error = cause as? PSQLError {
            reason = error.serverInfo?[.message] ?? error.underlying.map { String(describing: $0) } ?? "\(error.code)"
        } else {
            reason = String(describing: cause)
        }
    }

    public var description: String { "cannot connect to \(location): \(reason)" }
}
