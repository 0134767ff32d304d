import CatalogAPI
import CatalogConsole
import CatalogServices
import CatalogStore
import Logging
import NIOCore
import RPCCore
import RPCHTTP2
import ServiceLifecycle

/// Everything `catalogd` serves (Health, Reflection, Catalog, Categories, Filters) on one HTTP/2
/// server, as a ServiceLifecycle `Service`.
///
/// On graceful shutdown the health service turns NOT_SERVING, and every health and filter
/// Watch ends with UNAVAILABLE, so that clients move elsewhere, while the server drains
/// in-flight calls. Over a store that reports its database's reachability (PostgreSQL), health
/// is also NOT_SERVING while the database cannot be reached.
public final class CatalogServerApp: Service, Sendable {
    /// The health service.
    public let health: HealthService
    /// The filters' live state and Watch subscribers.
    public let filters: FilterHub
    private let store: any CatalogStore & FilterStore
    private let server: HTTP2Server

    /// - Parameters:
    ///   - store: where the catalog and the filters live.
    ///   - authorizer: decides which calls may run (a `TokenAuthorizer`); `nil` serves open.
    public init(
        configuration: HTTP2ServerConfiguration, logger: Logger, store: any CatalogStore & FilterStore,
        filterLimits: FilterHub.Limits = FilterHub.Limits(), authorizer: (any CallAuthorizer)? = nil
    ) {
        let health = HealthService(services: HealthService.catalogServiceNames)
        let filters = FilterHub(limits: filterLimits, authorizer: authorizer)
        self.health = health
        self.filters = filters
        self.store = store
        var router = Router.catalog(store: store, health: health, filters: filters)
        router.authorizer = authorizer
        var configuration = configuration
        configuration.errorDetailNames = .catalog
        self.server = HTTP2Server(router: router, configuration: configuration, logger: logger)
    }

    /// The web console's files, for `HTTP2ServerConfiguration.resources`: the page at `/`, its
    /// scripts and styles under `/console/`, each with a strict Content-Security-Policy.
    public static var consoleResources: [HTTPResource] {
        CatalogConsole.files.map {
            HTTPResource(path: $0.path, contentType: $0.contentType, body: $0.body, headerFields: CatalogConsole.headerFields)
        }
    }

    /// The address the server listens on, once it does; throws when binding failed.
    public var listeningAddress: SocketAddress {
        get async throws { try await server.listeningAddress }
    }

    /// Starts a graceful shutdown without ServiceLifecycle (e.g. from a test): health turns
    /// NOT_SERVING, the server stops accepting and drains; `run()` returns when it is done.
    public func beginGracefulShutdown() {
        health.shutDown()
        filters.shutDown()
        server.beginGracefulShutdown()
    }

    /// Keeps health NOT_SERVING while the store's database cannot be reached, so that
    /// health-checking clients and load balancers go to another replica; until cancelled.
    private func followReachability(of database: any ReachabilityReporting) async {
        for await reachable in database.reachabilityChanges() {
            health.setServing(reachable)
        }
    }

    /// Loads the filters, then serves until graceful shutdown.
    public func run() async throws {
        try await filters.load(from: store)
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { await self.filters.runHeartbeats() }
                if let database = store as? any ReachabilityReporting {
                    group.addTask { await self.followReachability(of: database) }
                }
                try await self.server.run()
                group.cancelAll()
            }
        } onGracefulShutdown: {
            self.health.shutDown()
            self.filters.shutDown()
        }
    }
}
