import CatalogAPI
import Logging
import RPCCore
import RPCHTTP2

/// Everything `catalogd` serves, assembled on one router.
public struct CatalogServerApp: Sendable {
    /// The router with every service registered.
    public let router: Router
    /// The health service, to mark NOT_SERVING during shutdown.
    public let health: HealthService

    public init() {
        var router = Router()
        let serviceNames = [Health.serviceName]
        let health = HealthService(services: serviceNames)
        router.register(health)
        self.router = router
        self.health = health
    }
}
