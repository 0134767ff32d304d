/// What app code needs of a ``CatalogClient``: its service clients, each behind its own
/// protocol, so that a test can hand the code a fake of one service and real clients of the
/// others. `any CatalogClientProtocol` gives each service as `any ItemsClientProtocol`, …
///
/// Tests that want the real services rather than fakes use `CatalogTesting`'s
/// `InProcessCatalog`, whose `client` is a ``CatalogClient``.
public protocol CatalogClientProtocol: Sendable {
    /// The items' client.
    associatedtype ItemsClientType: ItemsClientProtocol
    /// The categories' client.
    associatedtype CategoriesClientType: CategoriesClientProtocol
    /// The filters' client.
    associatedtype FiltersClientType: FiltersClientProtocol
    /// The health client.
    associatedtype HealthClientType: HealthClientProtocol

    /// The `catalog.v1.Catalog` service: the items.
    var items: ItemsClientType { get }
    /// The `catalog.v1.Categories` service.
    var categories: CategoriesClientType { get }
    /// The `catalog.v1.Filters` service.
    var filters: FiltersClientType { get }
    /// The `grpc.health.v1.Health` service.
    var health: HealthClientType { get }
}

extension CatalogClient: CatalogClientProtocol {}
extension ItemsClient: ItemsClientProtocol {}
extension CategoriesClient: CategoriesClientProtocol {}
extension FiltersClient: FiltersClientProtocol {}
extension HealthClient: HealthClientProtocol {}
