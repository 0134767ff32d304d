import CatalogAPI
import CatalogKit
import Foundation
import RPCCore
import RPCURLSession

// docs/client.md, "On Apple platforms: URLSession".

func clientGuideURLSessionCatalogClient() async throws {
    let transport = URLSessionTransport(baseURL: URL(string: "https://catalog.example.com")!, codec: .cbor)
    let catalog = CatalogClient(transport: transport, bearerToken: token)
    let item = try await catalog.items.get(id: 42)
    for try await event in catalog.filters.watch("categories") {
        if let state = event.state { render(state) }
    }
    _ = item
}

func clientGuideURLSessionRPCClient() async throws {
    let client = RPCClient(transport: URLSessionTransport(baseURL: URL(string: "http://127.0.0.1:50051")!))
    let item = try await client.unary(CatalogService.getItem, IDRequest(id: 42), options: CallOptions(timeout: .seconds(5)))
    _ = item
}
