import CatalogKit
import Foundation

// The examples in the `///` comments of CatalogClient, one function per symbol.

func catalogClientClass() async throws {
    let catalog = try await CatalogClient.connect(host: "127.0.0.1", port: 50051, bearerToken: token)
    let books = try await catalog.categories.create(name: "Books", icon: "book")
    let page = try await catalog.items.list(categoryId: books.id, options: .timeout(.seconds(2)))
    await catalog.close()
    _ = page
}

func catalogClientErrors(catalog: CatalogClient) async throws {
    do {
        _ = try await catalog.categories.create(name: "Books")
    } catch let error as RPCError where error.code == .alreadyExists && error.reason == "duplicateName" {
        print("taken by category \(error.details["id"]?.int64Value ?? 0)")
    }
}

func catalogClientConnect() async throws {
    let catalog = try await CatalogClient.connect(
        host: "catalog.example.com", port: 443, bearerToken: token, tls: ClientTLS(caFile: "ca.pem"))
    await catalog.close()
}

func catalogClientConnectToEndpoints() async throws {
    let catalog = try await CatalogClient.connect(to: [
        CatalogClient.Endpoint(host: "10.0.0.11", port: 50051),
        CatalogClient.Endpoint(host: "10.0.0.12", port: 50051),
    ])
    await catalog.close()
}

func loadBalancing(replicas: [CatalogClient.Endpoint]) async throws {
    var configuration = CatalogClient.Configuration.defaults
    configuration.loadBalancing = .roundRobin(healthCheck: true)
    let catalog = try await CatalogClient.connect(to: replicas, configuration: configuration)
    await catalog.close()
}

func configuration() async throws {
    var configuration = CatalogClient.Configuration.defaults
    configuration.defaultCallOptions.timeout = .seconds(5)
    configuration.connection.keepaliveInterval = .seconds(30)
    configuration.connection.tls = ClientTLS(caFile: "ca.pem", serverName: "catalog.example.com")
    let catalog = try await CatalogClient.connect(port: 50051, configuration: configuration)
    await catalog.close()
}

func backoff() {
    let backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(5))
    let third = backoff.delay(afterFailures: 3)   // about 400 ms (320 to 480 ms)
    _ = third
}

func retryPolicy() {
    var configuration = CatalogClient.Configuration.defaults
    configuration.retry = RetryPolicy(maxAttempts: 5, backoff: Backoff(initial: .milliseconds(50), maximum: .seconds(1)))
    _ = configuration
}

func callOptionsBearerToken(catalog: CatalogClient) async throws {
    var options = CallOptions(timeout: .seconds(2))
    options.bearerToken = ProcessInfo.processInfo.environment["CATALOG_TOKEN"]
    let item = try await catalog.items.get(id: 42, options: options)
    _ = item
}

func callOptionsNoTimeout(catalog: CatalogClient) async throws {
    let export = try await catalog.categories.export(options: .noTimeout)
    _ = export
}

func rpcErrorReason(catalog: CatalogClient) async throws {
    do {
        _ = try await catalog.categories.create(name: "Books")
    } catch let error as RPCError where error.reason == "duplicateName" {
        print("taken by category \(error.details["id"]?.int64Value ?? 0)")
    }
}

func itemsClient(catalog: CatalogClient) async throws {
    let page = try await catalog.items.list(query: "swift", sort: .price, pageSize: 20)
    let item = try await catalog.items.create(title: "Prompt Engineering", categoryId: 3)
    _ = try await catalog.items.update(id: item.id, summary: .clear)
    _ = page
}

func categoriesClient(catalog: CatalogClient) async throws {
    let books = try await catalog.categories.create(name: "Books", icon: "book")
    _ = try await catalog.categories.move(id: books.id, direction: .up)
    let report = try await catalog.categories.delete(id: books.id, items: .unassign, dryRun: true)
    _ = report
}

func filtersClient(catalog: CatalogClient) async throws {
    let state = try await catalog.filters.select("formations", optionId: 3)
    _ = try await catalog.filters.togglePresentation("formations")
    for try await event in catalog.filters.watch("formations") { print(event.kind, event.revision) }
    _ = state
}

func filterWatch(catalog: CatalogClient) async throws {
    for try await event in catalog.filters.watch("formations") {
        if let state = event.state { render(state) }
    }
}

func healthClient(catalog: CatalogClient) async throws {
    let status = try await catalog.health.check(service: "catalog.v1.Categories")
    _ = status
}

func reflectionClient(catalog: CatalogClient) async throws {
    let contract = try await catalog.reflection.describe()
    let paths = contract.services.flatMap(\.methods).map(\.path)
    _ = paths
}

func rawCallsClient(catalog: CatalogClient) async throws {
    let responses = try await catalog.raw.call("catalog.v1.Categories/Get", request: Array(#"{"id": 3}"#.utf8))
    for try await message in responses {
        print(String(decoding: message, as: UTF8.self))   // {"id":3,"name":"Sports",…}
    }
}

/// What an app keeps its credentials in, for the token provider's example.
actor Session {
    func freshToken() async throws -> String { "token" }
}

func configurationTokenProvider(session: Session) -> CatalogClient.Configuration {
    var configuration = CatalogClient.Configuration.defaults
    configuration.tokenProvider = { try await session.freshToken() }
    return configuration
}

func catalogClientLazy() {
    let catalog = CatalogClient(lazilyConnectingTo: [CatalogClient.Endpoint(host: "catalog.internal", port: 50051)])
    _ = catalog
}

func filterWatchUpdates(catalog: CatalogClient, showReconnecting: (RPCError) -> Void) async throws {
    for try await update in catalog.filters.watch("categories").updates {
        switch update {
        case .event(let event): if let state = event.state { render(state) }
        case .interrupted(let error): showReconnecting(error)
        }
    }
}
