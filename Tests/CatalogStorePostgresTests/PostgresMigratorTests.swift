import Logging
import PostgresNIO
import PostgresTestSupport
import TestSupport
import Testing

@testable import CatalogStorePostgres

@Suite("Schema migrations on PostgreSQL", .timeLimit(.minutes(2)))
struct PostgresMigratorTests {
    static let history = [
        PostgresMigration(version: 1, statements: ["CREATE TABLE note (id bigint PRIMARY KEY, text text NOT NULL)"]),
        PostgresMigration(version: 2, statements: [
            "ALTER TABLE note ADD COLUMN author text",
            "INSERT INTO note (id, text, author) VALUES (1, 'seeded once', 'migration 2')",
        ]),
    ]
    static let logger = quietLogger("migrations")

    @Test("a fresh database gets every migration; a second run finds nothing to do")
    func freshThenCurrent() async throws {
        try await withSharedClusterDatabase { cluster, database async throws in
            let url = cluster.url(database: database)
            try await withPostgresClient(url) { client async throws in
                #expect(try await PostgresMigrator(Self.history).migrate(client, logger: Self.logger) == [1, 2])
                #expect(try await PostgresMigrator(Self.history).migrate(client, logger: Self.logger) == [])
                #expect(try await count(client, "SELECT count(*) FROM note") == 1)
            }
        }
    }

    @Test("a newer catalogd applies only the migrations it adds")
    func incremental() async throws {
        try await withSharedClusterDatabase { cluster, database async throws in
            let url = cluster.url(database: database)
            try await withPostgresClient(url) { client async throws in
                #expect(try await PostgresMigrator(Array(Self.history.prefix(1))).migrate(client, logger: Self.logger) == [1])
                #expect(try await count(client, "SELECT count(*) FROM note") == 0)
                #expect(try await PostgresMigrator(Self.history).migrate(client, logger: Self.logger) == [2])
                #expect(try await count(client, "SELECT count(*) FROM note WHERE author = 'migration 2'") == 1)
            }
        }
    }

    @Test("replicas starting together migrate once: one run applies everything, the others find it done")
    func replicasTogether() async throws {
        try await withSharedClusterDatabase { cluster, database async throws in
            let url = cluster.url(database: database)
            let runs = try await withThrowingTaskGroup(of: [Int].self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        try await withPostgresClient(url) { client async throws in
                            try await PostgresMigrator(Self.history).migrate(client, logger: Self.logger)
                        }
                    }
                }
                return try await group.reduce(into: [[Int]]()) { $0.append($1) }
            }
            #expect(runs.count == 6)
            #expect(runs.filter { !$0.isEmpty } == [[1, 2]], "\(runs)")
            try await withPostgresClient(url) { client async throws in
                #expect(try await count(client, "SELECT count(*) FROM note") == 1, "the seed row went in once")
                #expect(try await count(client, "SELECT count(*) FROM schema_migration") == 2)
            }
        }
    }

    @Test("a failing migration names itself, and leaves nothing of its run behind")
    func failure() async throws {
        let broken = [Self.history[0], PostgresMigration(version: 2, statements: ["ALTER TABLE no_such_table ADD COLUMN x int"])]
        try await withSharedClusterDatabase { cluster, database async throws in
            let url = cluster.url(database: database)
            try await withPostgresClient(url) { client async throws in
                await #expect {
                    try await PostgresMigrator(broken).migrate(client, logger: Self.logger)
                } throws: { error in
                    guard case .migrationFailed(let version, let reason) = error as? PostgresSchemaError else { return false }
                    return version == 2 && reason.contains("no_such_table")
                }
                #expect(try await count(client, "SELECT count(*) FROM pg_tables WHERE tablename IN ('note', 'schema_migration')") == 0)
                #expect(try await PostgresMigrator(Self.history).migrate(client, logger: Self.logger) == [1, 2], "a fixed history then applies")
            }
        }
    }

    @Test("a database migrated by a newer catalogd is refused, naming both versions")
    func newerDatabase() async throws {
        try await withSharedClusterDatabase { cluster, database async throws in
            let url = cluster.url(database: database)
            try await withPostgresClient(url) { client async throws in
                _ = try await PostgresMigrator(Self.history).migrate(client, logger: Self.logger)
                await #expect(throws: PostgresSchemaError.newerThanKnown(applied: 2, known: 1)) {
                    try await PostgresMigrator(Array(Self.history.prefix(1))).migrate(client, logger: Self.logger)
                }
            }
        }
    }

    /// The single integer `query` answers.
    func count(_ client: PostgresClient, _ query: PostgresQuery) async throws -> Int {
        var result = 0
        for try await value in try await client.query(query).decode(Int.self) { result = value }
        return result
    }
}

/// Runs `body` with a pool on the database at `url`, running only meanwhile.
func withPostgresClient<T: Sendable>(_ url: String, _ body: @escaping @Sendable (PostgresClient) async throws -> T) async throws -> T {
    let location = try PostgresLocation(url: url, environment: [:])
    let client = PostgresClient(configuration: location.clientConfiguration, backgroundLogger: quietLogger("postgres"))
    return try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask {
            await client.run()
            return nil
        }
        defer { group.cancelAll() }
        return try await body(client)
    }
}
