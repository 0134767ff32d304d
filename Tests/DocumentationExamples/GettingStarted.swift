import CatalogKit

// Clients/CatalogKit/CatalogKit.docc: the landing page and the getting-started article,
// one function per article, in the order of its examples.

func landingPage() async throws {
    let catalog = try await CatalogClient.connect(host: "127.0.0.1", port: 50051, bearerToken: token)
    let page = try await catalog.items.list(query: "swift", sort: .price, pageSize: 20)
    for item in page.items { print(item.id, item.title) }
    await catalog.close()
}

func gettingStarted() async throws {
    let catalog = try await CatalogClient.connect(host: "127.0.0.1", port: 50051)
    let status = try await catalog.health.check()   // .serving
    _ = status

    let books = try await catalog.categories.create(name: "Books", icon: "book")
    let item = try await catalog.items.create(title: "The Swift Programming Language", categoryId: books.id)
    _ = try await catalog.items.update(id: item.id, summary: .set("The language guide"))
    let page = try await catalog.items.list(categoryId: books.id, sort: .price, pageSize: 20)
    for listed in page.items { print(listed.id, listed.title) }

    let first = try await catalog.items.get(id: 42, options: .timeout(.seconds(2)))
    _ = first

    do {
        _ = try await catalog.categories.create(name: "Books")
    } catch let error as RPCError where error.reason == "duplicateName" {
        print("taken by category \(error.details["id"]?.int64Value ?? 0)")
    } catch let error as RPCError where error.code == .unavailable {
        print("catalogd is out of reach: \(error.message)")
    }

    let watching = Task {
        for try await event in catalog.filters.watch("categories") {
            if let state = event.state { print(state.revision, state.selectedId ?? 0) }
        }
    }
    _ = try await catalog.filters.select("categories", optionId: books.id)
    watching.cancel()

    let secure = try await CatalogClient.connect(
        host: "catalog.example.com", port: 443,
        tls: ClientTLS(caFile: "ca.pem", clientCertificate: CertificateFiles(certificateChain: "me.pem", privateKey: "me.key")))
    await secure.close()

    let authorized = try await CatalogClient.connect(host: "catalog.example.com", port: 50051, bearerToken: readerToken)
    var options = CallOptions.timeout(.seconds(2))
    options.bearerToken = adminToken
    _ = try await authorized.filters.define("formations", title: "Formations", source: .categories, callOptions: options)
    await authorized.close()

    await catalog.close()
}
