import CatalogKit
import CatalogdTestSupport
import Foundation
import PostgresTestSupport
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// catalogd replicas, each a child process, serving one database of a throwaway PostgreSQL
/// cluster.
final class Replicas: Sendable {
    let cluster: PostgresCluster
    /// The database they serve.
    let database: String
    private let processes: Mutex<[CatalogdProcess]>

    private init(cluster: PostgresCluster, database: String, processes: [CatalogdProcess]) {
        self.cluster = cluster
        self.database = database
        self.processes = Mutex(processes)
    }

    /// Starts `count` replicas at once (so they migrate the new database together) on
    /// `database`, each with `extraArguments`.
    static func start(
        _ count: Int, on cluster: PostgresCluster, database: String = "catalog", extraArguments: [String] = []
    ) async throws -> Replicas {
        let url = cluster.url(database: database)
        let started = try await withThrowingTaskGroup(of: (Int, CatalogdProcess).self) { group in
            for index in 0..<count {
                group.addTask { (index, try await CatalogdProcess.start(database: url, extraArguments: extraArguments)) }
            }
            return try await group.reduce(into: [Int: CatalogdProcess]()) { $0[$1.0] = $1.1 }
        }
        return Replicas(cluster: cluster, database: database, processes: (0..<count).map { started[$0]! })
    }

    /// Runs `sql` with psql on their database.
    @discardableResult
    func psql(_ sql: String) throws -> String {
        try cluster.psql(sql, database: database)
    }

    var count: Int { processes.withLock { $0.count } }

    func process(_ index: Int) -> CatalogdProcess {
        processes.withLock { $0[index] }
    }

    func endpoint(_ index: Int) -> CatalogClient.Endpoint {
        CatalogClient.Endpoint(host: "127.0.0.1", port: process(index).port)
    }

    /// A client of replica `index` alone.
    func client(_ index: Int, configuration: CatalogClient.Configuration = .replicaTests) async throws -> CatalogClient {
        try await CatalogClient.connect(to: [endpoint(index)], configuration: configuration)
    }

    /// SIGKILLs every replica still running.
    func killAll() {
        for process in processes.withLock({ $0 }) { process.kill() }
    }
}

/// Where replicas' database is.
enum ReplicaCluster {
    /// A cluster of their own, for a test that stops, restarts or breaks the server.
    case own
    /// A new database of the test process's shared cluster, for a test that leaves the server alone.
    case shared
}

/// Runs `body` with `count` replicas on a fresh database, all stopped and removed afterwards.
func withReplicas<T>(
    _ count: Int, on where: ReplicaCluster = .own, extraArguments: [String] = [], _ body: (Replicas) async throws -> T
) async throws -> T {
    switch `where` {
    case .own:
        try await withPostgresCluster { cluster in
            let replicas = try await Replicas.start(count, on: cluster, extraArguments: extraArguments)
            defer { replicas.killAll() }
            return try await body(replicas)
        }
    case .shared:
        try await withSharedClusterDatabase { cluster, database in
            let replicas = try await Replicas.start(count, on: cluster, database: database, extraArguments: extraArguments)
            defer { replicas.killAll() }
            return try await body(replicas)
        }
    }
}

extension CatalogClient.Configuration {
    /// Quick to reconnect and to retry a read, as replica tests need when one goes away.
    static var replicaTests: Self {
        var configuration = Self.defaults
        configuration.retry = RetryPolicy(maxAttempts: 8, backoff: Backoff(initial: .milliseconds(25), maximum: .milliseconds(200)))
        configuration.reconnectBackoff = Backoff(initial: .milliseconds(25), maximum: .milliseconds(200))
        return configuration
    }
}
