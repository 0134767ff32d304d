import ChildProcess
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A throwaway PostgreSQL cluster: `initdb` into a temporary directory, a server that listens
/// only on a Unix socket in that directory, and a database named `catalog` owned by the user
/// `catalog` (trusted, no password). `stop()` ends the server and removes the directory.
///
/// PostgreSQL refuses to run as root. As root (as CI runs), its commands run as the `postgres`
/// user that Debian's package creates, through `runuser`, in a directory that user owns.
package final class PostgresCluster: Sendable {
    /// Holds the data directory, the log and the socket.
    package let directory: String
    package let port = 5432
    package let user = "catalog"
    private let bin: String
    private let runAs: String?

    /// The `--database` URL of database `name` on this cluster.
    package func url(database name: String = "catalog") -> String {
        "postgresql://\(user)@/\(name)?host=\(directory)"
    }

    /// Starts a cluster; throws with the tool's output when a step fails.
    package static func start() throws -> PostgresCluster {
        let cluster = try PostgresCluster()
        do {
            try cluster.run("initdb", "-D", "\(cluster.directory)/data", "-U", cluster.user, "--auth=trust", "-E", "UTF8",
                            "--locale=C.UTF-8", "--no-sync")
            try cluster.startServer()
            try cluster.run("createdb", "-h", cluster.directory, "-p", "\(cluster.port)", "-U", cluster.user, "catalog")
        } catch {
            cluster.stop()
            throw error
        }
        return cluster
    }

    private init() throws {
        bin = try Self.binDirectory()
        runAs = getuid() == 0 ? "postgres" : nil
        var template = Array("/tmp/catalog-postgres.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw PostgresClusterError("mkdtemp: \(String(cString: strerror(errno)))") }
        directory = String(cString: made)
        if let runAs {
            guard let account = getpwnam(runAs) else {
                throw PostgresClusterError("there is no '\(runAs)' user to run PostgreSQL as (install Debian's postgresql)")
            }
            guard chown(directory, account.pointee.pw_uid, account.pointee.pw_gid) == 0 else {
                throw PostgresClusterError("chown \(directory): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Creates another database, `name`, owned by `user`.
    package func createDatabase(_ name: String) throws {
        try run("createdb", "-h", directory, "-p", "\(port)", "-U", user, name)
    }

    /// Empties database `name`: drops its `public` schema, with every table in it, and makes it
    /// again. A tenth of the time of dropping the database and making another.
    package func emptyDatabase(_ name: String) throws {
        try psql("DROP SCHEMA public CASCADE; CREATE SCHEMA public;", database: name)
    }

    /// Stops the server (fast shutdown: connections are closed, transactions rolled back);
    /// the data stays, for `startServer()`.
    package func stopServer() throws {
        try run("pg_ctl", "-D", "\(directory)/data", "-m", "fast", "-w", "stop")
    }

    /// Starts the server again after `stopServer()`, on the same socket.
    package func startServer() throws {
        try run("pg_ctl", "-D", "\(directory)/data", "-l", "\(directory)/server.log", "-w", "-o", serverOptions, "start")
    }

    /// Restarts the server (`pg_ctl restart -m fast`: connections are closed, transactions
    /// rolled back) and waits until it accepts connections again.
    package func restartServer() throws {
        try run("pg_ctl", "-D", "\(directory)/data", "-l", "\(directory)/server.log", "-m", "fast", "-w", "-o", serverOptions, "restart")
    }

    private var serverOptions: String {
        "-c listen_addresses='' -k \(directory) -p \(port) -c fsync=off -c max_connections=200"
    }

    /// Runs `sql` with psql on database `name` and returns what it printed (unaligned, tuples only).
    @discardableResult
    package func psql(_ sql: String, database name: String = "catalog") throws -> String {
        try run("psql", "-h", directory, "-p", "\(port)", "-U", user, "-d", name, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql)
    }

    /// Runs the SQL script at `path` (a `pg_dump`, say) with psql on database `name`, stopping
    /// at the first error.
    package func runScript(at path: String, database name: String) throws {
        try run("psql", "-h", directory, "-p", "\(port)", "-U", user, "-d", name, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-f", path)
    }

    /// Drops database `name`, closing whatever connections it still has.
    package func dropDatabase(_ name: String) throws {
        try run("dropdb", "-h", directory, "-p", "\(port)", "-U", user, "--force", name)
    }

    /// One cluster for every test of the process that asks for it, started on first use and
    /// stopped when the process exits.
    package static func shared() throws -> PostgresCluster {
        try sharedCluster.withLock { shared in
            if let shared { return try shared.get() }
            let started = Result { try PostgresCluster.start() }
            shared = started
            if case .success = started { atexit { PostgresCluster.stopShared() } }
            return try started.get()
        }
    }

    private static let sharedCluster = Mutex<Result<PostgresCluster, any Error>?>(nil)

    fileprivate static func stopShared() {
        if case .success(let cluster) = sharedCluster.withLock({ $0 }) { cluster.stop() }
    }

    /// Stops the server at once (no checkpoint: the data is thrown away) and removes the directory.
    package func stop() {
        if FileManager.default.fileExists(atPath: "\(directory)/data/postmaster.pid") {
            _ = try? run("pg_ctl", "-D", "\(directory)/data", "-m", "immediate", "-w", "stop")
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs PostgreSQL's `tool` with `arguments` (as `postgres` when root), waits for it, and
    /// returns its output.
    @discardableResult
    private func run(_ tool: String, _ arguments: String...) throws -> String {
        let process = ChildProcess()
        if let runAs {
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
            process.arguments = ["-u", runAs, "--", "\(bin)/\(tool)"] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "\(bin)/\(tool)")
            process.arguments = arguments
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PostgresClusterError("\(tool) \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): \(text)")
        }
        return text
    }

    /// The newest PostgreSQL's programs under /usr/lib/postgresql (Debian's layout).
    private static func binDirectory() throws -> String {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        guard let newest = versions.last else {
            throw PostgresClusterError("PostgreSQL is not installed (no \(root)/<version>): scripts/setup.sh installs it")
        }
        return "\(root)/\(newest)/bin"
    }
}

/// Runs `body` with a fresh cluster, stopped and removed afterwards, whatever `body` does.
package func withPostgresCluster<T>(_ body: (PostgresCluster) async throws -> T) async throws -> T {
    let cluster = try PostgresCluster.start()
    defer { cluster.stop() }
    return try await body(cluster)
}

/// Runs `body` with a new database of the shared cluster (`PostgresCluster.shared()`), dropped
/// afterwards: for a test that a database of its own isolates well enough (one that stops or
/// breaks the server takes `withPostgresCluster`).
package func withSharedClusterDatabase<T>(
    _ body: (_ cluster: PostgresCluster, _ database: String) async throws -> T
) async throws -> T {
    let cluster = try PostgresCluster.shared()
    let database = "test_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
    try cluster.createDatabase(database)
    defer { try? cluster.dropDatabase(database) }
    return try await body(cluster, database)
}

/// A step of starting or using a test cluster failed.
package struct PostgresClusterError: Error, CustomStringConvertible {
    package let description: String

    init(_ description: String) {
        self.description = description
    }
}
