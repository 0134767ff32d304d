import CatalogStore
import GRDB
import GRDBSQLite
import Logging

/// Refuses every commit once the database file has been deleted, moved or replaced while the
/// store has it open. SQLite in WAL mode would go on writing to the file it has open (by then
/// a file nobody opens again) and report success, so every write acknowledged from then on
/// would be lost; each commit fails instead with UNAVAILABLE `databaseMoved`, and the first
/// is logged at error level. Reads go on answering from the connections already open: what
/// they see is exactly what was acknowledged (a read that needs a new connection fails).
///
/// The check is SQLite's `SQLITE_FCNTL_HAS_MOVED`: one `stat` of the path, its inode
/// compared with that of the open file, before each commit of the writer.
final class DatabaseFileGuard: TransactionObserver {
    /// The writer's connection, which GRDB calls this observer on.
    private let connection: OpaquePointer?
    private let path: String
    private let logger: Logger
    /// Whether the move was logged; read and written on the writer only.
    private var logged = false

    private init(connection: OpaquePointer?, path: String, logger: Logger) {
        self.connection = connection
        self.path = path
        self.logger = logger
    }

    /// Guards every commit of `writer` from now on.
    static func install(on writer: DatabasePool, logger: Logger) {
        writer.writeWithoutTransaction { db in
            let guardObserver = DatabaseFileGuard(connection: db.sqliteConnection, path: writer.path, logger: logger)
            db.add(transactionObserver: guardObserver, extent: .databaseLifetime)
        }
    }

    func databaseWillCommit() throws {
        var moved: Int32 = 0
        guard sqlite3_file_control(connection, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK, moved != 0 else {
            return
        }
        if !logged {
            logged = true
            logger.error(
                "the database file was deleted, moved or replaced while open: refusing every write from now on",
                metadata: ["database": "\(path)"])
        }
        throw CatalogError.databaseMoved
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) {}
    func databaseDidRollback(_ db: Database) {}
}
