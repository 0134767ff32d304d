import NIOCore
import RPCHTTP2

/// A server a test runs for the length of a body: `HTTP2Server`, or an assembly around one.
package protocol TestableServer: Sendable {
    func run() async throws
    func beginGracefulShutdown()
    var listeningAddress: SocketAddress { get async throws }
}

extension HTTP2Server: TestableServer {}

/// Runs `server` while `body` runs with the port it listens on, then shuts it down gracefully
/// and waits for it; when `body` or the start throws, cancels it instead.
package func whileServing<Server: TestableServer, T>(
    _ server: Server, _ body: (_ port: Int) async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await server.run() }
        do {
            guard let port = try await server.listeningAddress.port else { throw ServerNotListening() }
            let result = try await body(port)
            server.beginGracefulShutdown()
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
