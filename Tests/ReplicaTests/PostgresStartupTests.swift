import CatalogdTestSupport
import ChildProcess
import Foundation
import PostgresTestSupport
import Testing

/// catalogd given a PostgreSQL database it cannot serve: it exits 1 at once, saying why.
@Suite("catalogd on a PostgreSQL it cannot serve", .timeLimit(.minutes(2)))
struct PostgresStartupTests {
    /// Runs catalogd on `database` until it exits (SIGKILL after 30 s, which fails the test).
    static func run(database: String) async throws -> CatalogdProcess.Exit {
        let directory = try CatalogdProcess.makeDirectory()
        let port = try freeLoopbackPort()
        let catalogd = try CatalogdProcess(
            arguments: ["--address", "127.0.0.1:\(port)", "--database", database], port: port, directory: directory)
        defer { catalogd.kill() }
        return try await catalogd.waitForExit(timeout: .seconds(30))
    }

    @Test("no server at the address: exit 1 naming the database and the cause, without waiting for one")
    func unreachable() async throws {
        let exit = try await Self.run(database: "postgresql://catalog@/catalog?host=/nonexistent/socket/dir")
        #expect(exit.status == 1 && !exit.killedBySignal, "\(exit)")
        #expect(exit.stderr.contains("cannot open database: cannot connect to postgresql://catalog@/catalog"), "\(exit)")
        #expect(exit.stderr.contains("No such file or directory"), "\(exit)")
    }

    @Test("a database that does not exist, and one migrated by a newer catalogd: exit 1 saying so")
    func unusableDatabase() async throws {
        try await withPostgresCluster { cluster in
            let missing = try await Self.run(database: cluster.url(database: "nosuchdb"))
            #expect(missing.status == 1, "\(missing)")
            #expect(missing.stderr.contains("database \"nosuchdb\" does not exist"), "\(missing)")

            try cluster.psql(
                "CREATE TABLE schema_migration (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now()); INSERT INTO schema_migration (version) VALUES (99)")
            let newer = try await Self.run(database: cluster.url())
            #expect(newer.status == 1, "\(newer)")
            #expect(newer.stderr.contains("newer than this catalogd"), "\(newer)")
        }
    }
}
