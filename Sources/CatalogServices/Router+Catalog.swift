import CatalogAPI
import CatalogStore
import RPCCore

extension Router {
    /// A router with every method of every service `catalogd` serves: Health, Reflection,
    /// Catalog, Categories and Filters, over one store.
    public static func catalog(store: any CatalogStore & FilterStore, health: HealthService, filters: FilterHub) -> Router {
        var router = Router()
        router.register(health)
        router.register(ReflectionService())
        router.register(CatalogRPCService(store: store))
        router.register(CategoriesRPCService(store: store))
        router.register(FiltersRPCService(store: store, hub: filters))
        // The reads (reader role or none) answer Connect's GET form.
        router.readOnlyPaths = Set(
            CatalogContract.methods.filter { $0.role <= .reader && $0.descriptor.kind == .unary }.map(\.descriptor.path))
        return router
    }
}

extension HealthService {
    /// The services `Router.catalog(store:health:filters:)` serves, as health checks name them.
    public static let catalogServiceNames = [
        Health.serviceName, Reflection.serviceName, CatalogService.name, CategoriesService.name, FiltersService.name,
    ]
}
