import CatalogKit

// docs/client.md

/// "Names": an app's short name for the catalog's `Category`.
typealias CatalogCategory = CatalogKit.Category

func chipTitles(_ categories: [CatalogCategory]) -> [String] {
    categories.map { "\($0.name) (\($0.itemCount))" }
}

/// "Connecting".
func clientGuideConnecting() async throws {
    let catalog = try await CatalogClient.connect(host: "127.0.0.1", port: 50051, bearerToken: token)
    // … calls …
    await catalog.close()
}

/// The services.
func clientGuideServices(catalog: CatalogClient) async throws {
    let books = try await catalog.categories.create(name: "Books", icon: "book")
    let page = try await catalog.items.list(categoryId: books.id, sort: .price, pageSize: 20)
    if let first = page.items.first {
        _ = try await catalog.items.update(id: first.id, summary: .clear)   // .unchanged, .clear or .set(x)
    }
    let order = try await catalog.categories.move(id: books.id, direction: .up)
    let report = try await catalog.categories.delete(id: books.id, items: .unassign, dryRun: true)
    let status = try await catalog.health.check()                                // .serving
    _ = (order, report, status)
}

/// Importing items.
func clientGuideImport(catalog: CatalogClient, books: CatalogKit.Category, titles: [String]) async throws {
    let requests = titles.map { CreateItemRequest(title: $0, categoryId: books.id) }
    let result = try await catalog.items.import(AsyncStream { stream in
        for request in requests { stream.yield(request) }
        stream.finish()
    })
    print("created \(result.created), ids \(result.firstId ?? 0)…\(result.lastId ?? 0), revision \(result.revision)")
}

/// `ItemsClient.import(_:options:)`.
func itemsClientImport(catalog: CatalogClient, titles: [String]) async throws {
    let requests = AsyncStream { stream in
        for title in titles { stream.yield(CreateItemRequest(title: title)) }
        stream.finish()
    }
    let result = try await catalog.items.import(requests)
    print("created \(result.created) items at revision \(result.revision)")
}

/// "Configuration".
func clientGuideConfiguration() async throws {
    var configuration = CatalogClient.Configuration.defaults
    configuration.defaultCallOptions.timeout = .seconds(5)
    configuration.connection.keepaliveInterval = .seconds(30)
    configuration.retry = RetryPolicy(maxAttempts: 5, backoff: Backoff(initial: .milliseconds(50), maximum: .seconds(1)))
    configuration.reconnectBackoff = Backoff(initial: .milliseconds(200), maximum: .seconds(10))
    let client = try await CatalogClient.connect(host: "catalog.example.com", port: 50051, configuration: configuration)
    await client.close()
}

/// "Per-call options".
func clientGuideCallOptions(catalog: CatalogClient, otherToken: String) async throws {
    let item = try await catalog.items.get(id: 42, options: .timeout(.seconds(2)))

    var options = CallOptions(timeout: .seconds(2), compression: .gzip)
    options.bearerToken = otherToken                       // authorization: Bearer …
    options.metadata.add("x-request-id", "b7e1")
    _ = try await catalog.categories.stats(options: options)
    _ = item
}

/// "Errors".
func clientGuideErrors(catalog: CatalogClient) async throws {
    do {
        _ = try await catalog.categories.create(name: "Books")
    } catch let error as RPCError where error.reason == "duplicateName" {
        print("taken by category \(error.details["id"]?.int64Value ?? 0)")
    }
}

/// "Round-robin over replicas".
func clientGuideRoundRobin() async throws {
    var configuration = CatalogClient.Configuration.defaults
    configuration.loadBalancing = .roundRobin(healthCheck: true)
    let catalog = try await CatalogClient.connect(to: [
        CatalogClient.Endpoint(host: "10.0.0.11", port: 50051),
        CatalogClient.Endpoint(host: "10.0.0.12", port: 50051),
        CatalogClient.Endpoint(host: "10.0.0.13", port: 50051),
    ], configuration: configuration)
    await catalog.close()
}

/// "Watching a filter".
func clientGuideWatch(catalog: CatalogClient) async throws {
    for try await event in catalog.filters.watch("formations", delivery: .everyChange) {
        if let state = event.state {
            print(state.revision, state.selectedId.map { "option \($0)" } ?? "all")
        }
    }
}

/// "Watching and changing a filter on one stream".
func clientGuideSession(catalog: CatalogClient) async throws {
    try await catalog.filters.session("categories") { session in
        try await withThrowingTaskGroup { group in
            group.addTask { for try await event in session.events { if let state = event.state { render(state) } } }
            let answer = try await session.perform(.select(optionId: 3))
            print(answer.kind, answer.revision)    // change 42, or ack 41 when 3 was selected already
            group.cancelAll()
        }
    }
}

/// `FilterSession`.
func filterSessionSymbol(catalog: CatalogClient) async throws {
    try await catalog.filters.session("categories") { session in
        try await withThrowingTaskGroup { group in
            group.addTask { for try await event in session.events { if let state = event.state { render(state) } } }
            _ = try await session.perform(.select(optionId: 3))
            group.cancelAll()
        }
    }
}

/// "Raw calls".
func clientGuideRawCalls(catalog: CatalogClient) async throws {
    let responses = try await catalog.raw.call("catalog.v1.Categories/Get", request: Array(#"{"id": 3}"#.utf8))
    for try await message in responses {
        print(String(decoding: message, as: UTF8.self))
    }
}

/// "TLS".
func clientGuideTLS() async throws {
    let catalog = try await CatalogClient.connect(
        host: "catalog.example.com", port: 443, bearerToken: token,
        tls: ClientTLS(caFile: "ca.pem"))
    await catalog.close()
}
