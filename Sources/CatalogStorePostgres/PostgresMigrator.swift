import Logging
import PostgresNIO

/// One step of a schema's history: statements run in order, in one transaction with the
/// others of the same run. A migration is never edited once it has landed: add a new one.
struct PostgresMigration: Sendable {
    /// Its place in the history, from 1, without gaps.
    let version: Int
    let statements: [PostgresQuery]
}

/// Brings a database's schema up to date. Replicas that start together migrate it once: each
/// run takes the same transaction-scoped advisory lock before it reads which versions are
/// applied, so a second run waits for the first to commit and then finds nothing to do.
struct PostgresMigrator: Sendable {
    let migrations: [PostgresMigration]

    /// The advisory lock every run of any catalogd takes (a constant: "catalog" in ASCII).
    static let lockKey: Int64 = 0x63_61_74_61_6C_6F_67

    init(_ migrations: [PostgresMigration]) {
        precondition(migrations.map(\.version) == Array(1...migrations.count), "migration versions run 1, 2, 3… without gaps")
        self.migrations = migrations
    }

    /// Applies the migrations `client`'s database lacks, all in one transaction; returns their
    /// versions. A database migrated past the newest version known here is refused: it
    /// belongs to a newer catalogd.
    func migrate(_ client: PostgresClient, logger: Logger) async throws -> [Int] {
        do {
            return try await apply(client, logger: logger)
        } catch let error as PostgresTransactionError {
            // The transaction rolled back; what failed inside it is the error to report.
            throw error.closureError ?? error
        }
    }

    private func apply(_ client: PostgresClient, logger: Logger) async throws -> [Int] {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.lockKey))", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS schema_migration (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
                logger: logger)
            var applied = 0
            for try await version in try await connection.query("SELECT coalesce(max(version), 0) FROM schema_migration", logger: logger)
                .decode(Int.self)
            {
                applied = version
            }
            guard applied <= migrations.count else {
                throw PostgresSchemaError.newerThanKnown(applied: applied, known: migrations.count)
            }
            let pending = migrations.dropFirst(applied)
            for migration in pending {
                do {
                    for statement in migration.statements {
                        try await connection.query(statement, logger: logger)
                    }
                } catch {
                    throw PostgresSchemaError.migrationFailed(version: migration.version, reason: Self.reason(error))
                }
                try await connection.query("INSERT INTO schema_migration (version) VALUES (\(migration.version))", logger: logger)
                logger.info("applied schema migration", metadata: ["version": "\(migration.version)"])
            }
            return pending.map(\.version)
        }
    }

    /// The server's message for a failed statement, or the error's own description.
    private static func reason(_ error: any Error) -> String {
        (error as? PSQLError)?.serverInfo?[.message] ?? String(describing: error)
    }
}

/// A database whose schema this catalogd cannot serve.
public enum PostgresSchemaError: Error, Hashable, CustomStringConvertible {
    /// Migrated by a newer catalogd: `applied` is its newest version, `known` this one's.
    case newerThanKnown(applied: Int, known: Int)
    /// Migration `version` failed; nothing of its run was applied.
    case migrationFailed(version: Int, reason: String)

    public var description: String {
        switch self {
        case .newerThanKnown(let applied, let known):
            "the database's schema is at version \(applied), newer than this catalogd's \(known): run a newer catalogd"
        case .migrationFailed(let version, let reason):
            "schema migration \(version) failed, and none of this run's migrations was applied: \(reason)"
        }
    }
}
