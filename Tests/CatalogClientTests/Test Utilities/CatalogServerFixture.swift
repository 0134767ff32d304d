import CatalogKit
import CatalogTestSupport
import ChildProcess
import TestSupport

/// Runs the real `CatalogServerApp` on `127.0.0.1:port` (default: a free port outside the
/// ephemeral range, so that a restart on it cannot collide with a client's port) over the
/// SQLite file at `databasePath` while `body` runs with the port, then shuts it down gracefully.
@discardableResult
func withCatalogServer<T>(
    port: Int? = nil,
    databasePath: String,
    _ body: (_ port: Int) async throws -> T
) async throws -> T {
    try await withCatalogServerApp(databasePath: databasePath, port: try port ?? freeLoopbackPort()) { _, port in
        try await body(port)
    }
}

/// Runs the real server on a fresh database while `body` runs with a client connected to it.
@discardableResult
func withConnectedClient<T>(
    configuration: CatalogClient.Configuration = .defaults,
    _ body: (CatalogClient) async throws -> T
) async throws -> T {
    try await withCatalogServerApp { _, port in
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
