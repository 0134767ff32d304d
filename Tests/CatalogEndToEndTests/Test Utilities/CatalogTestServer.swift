import CatalogServer
import CatalogServices
import CatalogTestSupport
import Foundation
import Logging
import RPCCore
import RPCHTTP2
import TestSupport

/// A running `CatalogServerApp` on a fresh SQLite file and a loopback port, with a client
/// connected to it.
struct CatalogTestServer {
    let port: Int
    let connection: HTTP2ClientConnection
    let client: RPCClient
    let app: CatalogServerApp

    /// Opens another connection to the server.
    func connect() async throws -> HTTP2ClientConnection {
        try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port, configuration: .catalog)
    }
}

/// Runs the real server on a fresh temporary database while `body` runs, then shuts it down
/// and removes the database (see `withCatalogServerApp` for the options).
@discardableResult
func withCatalogServer<T>(
    filterLimits: FilterHub.Limits = FilterHub.Limits(),
    authorizer: (any CallAuthorizer)? = nil,
    configure: (inout HTTP2ServerConfiguration) -> Void = { _ in },
    logger: Logger = quietLogger(),
    _ body: (CatalogTestServer) async throws -> T
) async throws -> T {
    try await withCatalogServerApp(filterLimits: filterLimits, authorizer: authorizer, configure: configure, logger: logger) {
        app, port in try await connected(app, port, body)
    }
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
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return try await withCatalogServerApp(
        databasePath: directory.appendingPathComponent("catalog.sqlite").path, filterLimits: filterLimits,
        authorizer: authorizer, configure: configure, logger: logger
    ) { app, port in try await connected(app, port, body) }
}

/// Runs `body` with a connection to `app` on `port`, closed afterwards.
private func connected<T>(
    _ app: CatalogServerApp, _ port: Int, _ body: (CatalogTestServer) async throws -> T
) async throws -> T {
    let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port, configuration: .catalog)
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
