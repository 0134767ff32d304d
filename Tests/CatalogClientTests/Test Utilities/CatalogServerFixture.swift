import CatalogClient
import CatalogServer
import CatalogServices
import CatalogStore
import CatalogServerRunner
import CatalogStoreSQLite
import ChildProcess
import Foundation
import Logging
import RPCHTTP2
import Testing

/// A temporary directory holding the SQLite file of the servers of one test, so that a
/// server restarted on the same file sees what the previous one stored.
final class TestDatabase: Sendable {
    let directory: URL
    var path: String { directory.appendingPathComponent("catalog.sqlite").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("catalog-client-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }
}

/// Runs the real `CatalogServerApp` on `127.0.0.1:port` (default: a free port outside the
/// ephemeral range, so that a restart on it cannot collide with a client's port) over the
/// SQLite file at `databasePath` while `body` runs with the port, then shuts it down gracefully.
@discardableResult
func withCatalogServer<T>(
    port: Int? = nil,
    databasePath: String,
    _ body: (_ port: Int) async throws -> T
) async throws -> T {
    let store = try SQLiteCatalogStore(path: databasePath)
    var configuration = HTTP2ServerConfiguration.defaults
    configuration.host = "127.0.0.1"
    configuration.port = try port ?? freeLoopbackPort()
    var logger = Logger(label: "test.catalog.client")
    logger.logLevel = .critical
    let app = CatalogServerApp(configuration: configuration, logger: logger, store: store)
    return try await whileServing(app, body)
}

/// Runs the real server on a fresh database while `body` runs with a client connected to it.
@discardableResult
func withConnectedClient<T>(
    configuration: CatalogClient.Configuration = .defaults,
    _ body: (CatalogClient) async throws -> T
) async throws -> T {
    let database = try TestDatabase()
    return try await withCatalogServer(databasePath: database.path) { port in
        let client = try await CatalogClient.connect(port: port, configuration: configuration)
        do {
            let result = try await body(client)
            await client.close()
            return result
        } catch {
            await client.close()
            throw error
        }
    }
}
