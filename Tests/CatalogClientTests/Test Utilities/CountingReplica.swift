import CatalogAPI
import CatalogServices
import Foundation
import HTTP2TestSupport
import RPCCore
import RPCHTTP2
import Synchronization
import TestSupport

/// One replica of a service for tests of how a client spreads its calls: an HTTP/2 server on
/// `127.0.0.1:port` with the real health service, and `Categories/List` (a read) and
/// `Categories/Create` (a write) answered from nothing, counting the calls each answered.
/// Stopping it is `catalogd`'s graceful shutdown: health turns NOT_SERVING and its watches
/// end, then the server sends GOAWAY and drains.
final class CountingReplica: Sendable {
    /// The replica's health service, SERVING until told otherwise (`setStatus`).
    let health = HealthService(services: [])
    private let counts: Counts
    fileprivate let server: HTTP2Server

    private final class Counts: Sendable {
        let value = Mutex((reads: 0, writes: 0))
    }

    init(port: Int) {
        let counts = Counts()
        var router = Router()
        router.register(health)
        router.register(CategoriesService.list, .unary { _, _ in
            counts.value.withLock { $0.reads += 1 }
            return CategoryList(categories: [])
        })
        router.register(CategoriesService.create, .unary { request, _ in
            let id = counts.value.withLock { counts in
                counts.writes += 1
                return Int64(counts.writes)
            }
            return Category(
                id: id, name: request.name, slug: request.name, color: "#336699", position: 0, isDefault: false,
                itemCount: 0, revision: 1, createdAt: Date(), updatedAt: Date())
        })
        var configuration = HTTP2ServerConfiguration.defaults
        configuration.errorDetailNames = .catalog  // as catalogd's
        configuration.host = "127.0.0.1"
        configuration.port = port
        self.counts = counts
        self.server = HTTP2Server(router: router, configuration: configuration, logger: quietLogger("test.replica"))
    }

    /// How many `Categories/List` calls it answered.
    var reads: Int { counts.value.withLock { $0.reads } }
    /// How many `Categories/Create` calls it answered.
    var writes: Int { counts.value.withLock { $0.writes } }
}

/// Runs a `CountingReplica` on `port` while `body` runs, then stops it as `catalogd` does.
@discardableResult
func withCountingReplica<T>(on port: Int, _ body: (CountingReplica) async throws -> T) async throws -> T {
    let replica = CountingReplica(port: port)
    return try await whileServing(replica.server) { _ in
        let result = try await body(replica)
        replica.health.shutDown()
        return result
    }
}

/// Runs a `CountingReplica` on each of `ports` while `body` runs with them, in that order.
@discardableResult
func withCountingReplicas<T>(on ports: [Int], _ body: ([CountingReplica]) async throws -> T) async throws -> T {
    guard let first = ports.first else { return try await body([]) }
    return try await withCountingReplica(on: first) { replica in
        try await withCountingReplicas(on: Array(ports.dropFirst())) { others in try await body([replica] + others) }
    }
}
