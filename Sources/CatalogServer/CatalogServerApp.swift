import CatalogAPI
import Logging
import NIOCore
import RPCCore
import RPCHTTP2
import ServiceLifecycle

/// Everything `catalogd` serves (Health, Catalog, Categories) on one HTTP/2 server, as a
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
        var router = Router()
        let health = HealthService(services: [Health.serviceName, CatalogService.name, CategoriesService.name])
        router.register(health)
        router.register(CatalogRPCService(store: store))
        router.register(CategoriesRPCService(store: store))
        self.health = health
        self.server = HTTP2Server(router: router, configuration: configuration, logger: logger)
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
