import CatalogServer

/// Runs `app` while `body` runs with the port it listens on, then shuts it down gracefully and
/// waits for it; when `body` or the start throws, cancels it instead.
public func whileServing<T>(_ app: CatalogServerApp, _ body: (_ port: Int) async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await app.run() }
        do {
            guard let port = try await app.listeningAddress.port else { throw ServerNotListening() }
            let result = try await body(port)
            app.beginGracefulShutdown()
            try await group.waitForAll()
            return result
        } catch {
            group.cancelAll()
            throw error
        }
    }
}

/// The server's listening address has no port.
struct ServerNotListening: Error, CustomStringConvertible {
    var description: String { "the server listens on an address without a port" }
}
