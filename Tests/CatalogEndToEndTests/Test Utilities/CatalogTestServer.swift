import CatalogAPI
import CatalogServer
import CatalogServices
import CatalogStore
import CatalogServerRunner
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
    let app: CatalogServerApp

    /// Opens another connection to the server.
    func connect() async throws -> HTTP2ClientConnection {
        try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port)
    }
}

/// Runs the real server on a fresh temporary database while `body` runs, then shuts it down
/// and removes the database. `authorizer` decides who may call what (`nil`: open);
/// `configure` adjusts the server's configuration and `logger` is the server's (quiet by default).
@discardableResult
func withCatalogServer<T>(
    filterLimits: FilterHub.Limits = FilterHub.Limits(),
    authorizer: (any CallAuthorizer)? = nil,
    configure: (inout HTTP2ServerConfiguration) -> Void = { _ in },
    logger: Logger = quietLogger(),
    _ body: (CatalogTestServer) async throws -> T
) async throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("catalog-e2e-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await withCatalogServer(
        databaseIn: directory, filterLimits: filterLimits, authorizer: authorizer, configure: configure, logger: logger, body)
}

/// Runs the real server on the database in `directory` (created when missing, kept
/// afterwards) while `body` runs, then shuts it down.
@discardableResult
func withCatalogServer<T>(
    databaseIn directory: URL,
    filterLimits: FilterHub.Limits = FilterHub.Limits(),
    authorizer: (any CallAuthorizer)? = nil,
    configure: (inout HTTP2ServerConfiguration) -> Void = { _ in },
    logger: Logger = quietLogger(),
    _ body: (CatalogTestServer) async throws -> T
) async throws -> T {
    let store = try SQLiteCatalogStore(path: directory.appendingPathComponent("catalog.sqlite").path)
    var configuration = HTTP2ServerConfiguration.defaults
    configuration.host = "127.0.0.1"
    configuration.port = 0
    configure(&configuration)
    let app = CatalogServerApp(
        configuration: configuration, logger: logger, store: store, filterLimits: filterLimits, authorizer: authorizer)

    return try await whileServing(app) { port in
        let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port)
        let server = CatalogTestServer(port: port, connection: connection, client: RPCClient(transport: connection), app: app)
        do {
            let result = try await body(server)
            await connection.close()
            return result
        } catch {
            await connection.close()
            throw error
        }
    }
}

/// A logger that lets only critical messages through.
func quietLogger() -> Logger {
    var logger = Logger(label: "test.catalog.e2e")
    logger.logLevel = .critical
    return logger
}
