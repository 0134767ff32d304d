import CatalogClient
import CatalogServer
import CatalogStoreSQLite
import Foundation
import Logging
import RPCHTTP2
import Testing

/// A real catalog server (the `CatalogServerApp` of catalogd over a fresh SQLite file) on
/// 127.0.0.1 for one test, and a client of it for the test's own setup and checks.
struct TestServer: Sendable {
    let port: Int
    let client: CatalogClient

    /// `127.0.0.1:<port>`, for `--server` and `CATALOG_SERVER`.
    var address: String { "127.0.0.1:\(port)" }
}

/// Runs a server while `body` runs, then shuts it down gracefully. With `demo`, the store
/// holds the demo catalog (5 more categories, 50 French training courses) from the start.
@discardableResult
func withTestServer<T>(demo: Bool = false, _ body: (TestServer) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try SQLiteCatalogStore(path: directory.appendingPathComponent("catalog.sqlite").path)
    if demo { _ = try await DemoCatalog.seed(into: store) }
    var configuration = HTTP2ServerConfiguration.defaults
    configuration.host = "127.0.0.1"
    configuration.port = 0
    var logger = Logger(label: "test.catalog.cli")
    logger.logLevel = .critical
    let app = CatalogServerApp(configuration: configuration, logger: logger, store: store)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await app.run() }
        do {
            let port = try #require(try await app.listeningAddress.port)
            let client = try await CatalogClient.connect(port: port)
            let result: T
            do {
                result = try await body(TestServer(port: port, client: client))
            } catch {
                await client.close()
                throw error
            }
            await client.close()
            app.beginGracefulShutdown()
            try await group.waitForAll()
            return result
        } catch {
            group.cancelAll()
            throw error
        }
    }
}
