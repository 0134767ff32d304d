import CatalogAPI
import CatalogServer
import CatalogStoreSQLite
import Foundation
import Logging
import RPCCore
import RPCHTTP2
import Testing

/// A running `CatalogServerApp` on a fresh SQLite file and a loopback port, with a client
/// connected to it.
struct CatalogTestServer {
    let port: Int
    let connection: HTTP2ClientConnection
    let client: RPCClient
}

/// Runs the real server on a fresh temporary database while `body` runs, then shuts it down
/// and removes the database.
@discardableResult
func withCatalogServer<T>(_ body: (CatalogTestServer) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("catalog-e2e-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }

    let store = try SQLiteCatalogStore(path: directory.appendingPathComponent("catalog.sqlite").path)
    var configuration = HTTP2ServerConfiguration.defaults
    configuration.host = "127.0.0.1"
    configuration.port = 0
    var logger = Logger(label: "test.catalog.e2e")
    logger.logLevel = .critical
    let app = CatalogServerApp(configuration: configuration, logger: logger, store: store)

    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await app.run() }
        do {
            let port = try #require(try await app.listeningAddress.port)
            let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port)
            let server = CatalogTestServer(port: port, connection: connection, client: RPCClient(transport: connection))
            let result: T
            do {
                result = try await body(server)
            } catch {
                await connection.close()
                throw error
            }
            await connection.close()
            app.beginGracefulShutdown()
            try await group.waitForAll()
            return result
        } catch {
            group.cancelAll()
            throw error
        }
    }
}
