import CatalogAPI
import CatalogServer
import GRDB

/// The catalog in an SQLite file through GRDB (WAL mode, foreign keys on).
public final class SQLiteCatalogStore: Sendable {
    let database: DatabasePool

    /// Opens (or creates) the database at `path` and migrates it.
    public init(path: String) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        database = try DatabasePool(path: path, configuration: configuration)
    }
}
