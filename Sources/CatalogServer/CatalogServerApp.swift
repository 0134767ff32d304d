import CatalogAPI
import Logging
import NIOCore
import RPCCore
import RPCHTTP2
import ServiceLifecycle

/// Everything `catalogd` serves (Health, Reflection, Catalog, Categories) on one HTTP/2 server, as a
/// ServiceLifecycle `Service`.
///
/// On graceful shutdown the health service turns NOT_SERVING and ends its watches with
/// UNAVAILABLE, so that clients move elsewhere, while the server drains in-flight calls.
public final class CatalogServerApp: Service, Sendable {
    /// The health service.
    public let health: HealthService
    private let server: HTTP2Server

    /// - Parameter store: where the catalog lives.
    public init(configuration: HTTP2ServerConfiguration, logger: Logger, store: any CatalogStore) {
        let health = HealthService(services: Self.serviceNames)
        self.health = health
        self.server = HTTP2Server(router: Self.makeRouter(store: store, health: health), configuration: configuration, logger: logger)
    }

    /// The services served, as health checks know them.
    public static let serviceNames = [Health.serviceName, Reflection.serviceName, CatalogService.name, CategoriesService.name]

    /// The router the server uses: every method of every served service.
    public static func makeRouter(store: any CatalogStore, health: HealthService) -> Router {
        var router = Router()
        router.register(health)
        router.register(ReflectionService())
        router.register(CatalogRPCService(store: store))
        router.register(CategoriesRPCService(store: store))
        return router
    }

    /// The address the server listens on, once it does; throws when binding failed.
    public var listeningAddress: SocketAddress {
        get async throws { try await server.listeningAddress }
    }

    /// Starts a graceful shutdown without ServiceLifecycle (e.g. from a test): health turns
    /// NOT_SERVING, the server stops accepting and drains; `run()` returns when it is done.
    public func beginGracefulShutdown() {
        health.shutDown()
        server.beginGracefulShutdown()
    }

    public func run() async throws {
        try await withGracefulShutdownHandler {
            try await server.run()
        } onGracefulShutdown: {
            self.health.shutDown()
        }
    }
}
