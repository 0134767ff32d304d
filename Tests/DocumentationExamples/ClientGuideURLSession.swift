import CatalogKit
import Foundation
import RPCURLSession

// docs/client.md, "On Apple platforms: URLSession".

func clientGuideURLSessionCatalogClient() async throws {
    let transport = URLSessionTransport(baseURL: URL(string: "https://catalog.example.com")!, codec: .cbor, errorDetailNames: .catalog)
    let catalog = CatalogClient(transport: transport, bearerToken: token)
    let item = try await catalog.items.get(id: 42)
    for try await event in catalog.filters.watch("categories") {
        if let state = event.state { render(state) }
    }
    _ = item
}
