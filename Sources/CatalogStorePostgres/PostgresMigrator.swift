import Logging
import PostgresNIO

/// One step of a schema's history: statements run in order, in one transaction with the
/// others of the same run. A migration is never edited once it has landed: add a new one.
struct PostgresMigration: Sendable {
    /// A statement, or code that converts rows with statements of its own.
    enum Step: Sendable {
        case statement(PostgresQuery)
        case code(@Sendable (_ query: (PostgresQuery) async throws -> [PostgresRow]) async throws -> Void)
    }

    /// Its place in the history, from 1, without gaps.
    let version: Int
    let steps: [Step]

    init(version: Int, statements: [PostgresQuery]) {
        self.version = version
        self.steps = statements.map(Step.statement)
    }

    init(version: Int, steps: [Step]) {
        self.version = version
        self.steps = steps
    }
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

    /// The longest a migration statement may wait for PostgreSQL: migrations rewrite whole
    /// tables.
    static let statementTimeout: Duration = .seconds(600)

    /// Applies the migrations `client`'s database lacks, all in one transaction; returns their
    /// versions. A database migrated past the newest version known here is refused: it
    /// belongs to a newer catalogd.
    func migrate(_ client: PostgresClient, logger: Logger) async throws -> [Int] {
        try await client.withConnection { connection in
            try await connection.transaction(timeout: Self.statementTimeout, logger: logger) {
                try await apply(on: connection, logger: logger)
            }
        }
    }

    private func apply(on connection: PostgresConnection, logger: Logger) async throws -> [Int] {
        @discardableResult
        func query(_ statement: PostgresQuery) async throws -> [PostgresRow] {
            try await connection.roundTrip(statement, timeout: Self.statementTimeout, logger: logger)
        }
        try await query("SELECT pg_advisory_xact_lock(\(Self.lockKey))")
        try await query(
            "CREATE TABLE IF NOT EXISTS schema_migration (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
        let applied = try await query("SELECT coalesce(max(version), 0) FROM schema_migration").first?.decode(Int.self) ?? 0
        guard applied <= migrations.count else {
            throw PostgresSchemaError.newerThanKnown(applied: applied, known: migrations.count)
        }
        let pending = migrations.dropFirst(applied)
        for migration in pending {
            do {
                for step in migration.steps {
                    switch step {
                    case .statement(let statement): try await query(statement)
                    case .code(let convert): try await convert { try await query($0) }
                    }
                }
            } catch {
                throw PostgresSchemaError.migrationFailed(version: migration.version, reason: Self.reason(error))
            }
            try await query("INSERT INTO schema_migration (version) VALUES (\(migration.version))")
            logger.info("applied schema migration", metadata: ["version": "\(migration.version)"])
        }
        return pending.map(\.version)
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
