import CatalogAPI
import CatalogKit
import Testing

@Suite("client.reflection and client.health against the real server")
struct ReflectionAndHealthClientTests {
    @Test("describe returns the contract with every client method's path")
    func describe() async throws {
        try await withConnectedClient { client in
            let contract = try await client.reflection.describe()
            #expect(contract.package == "catalog.v1")
            let paths = Set(contract.services.flatMap(\.methods).map(\.path))
            #expect(paths.contains(CategoriesService.create.descriptor.path))
            #expect(paths.contains(CatalogService.listItems.descriptor.path))
        }
    }

    @Test("health check of the server and of a service; an unknown service is NOT_FOUND")
    func health() async throws {
        try await withConnectedClient { client in
            #expect(try await client.health.check() == .serving)
            #expect(try await client.health.check(service: CategoriesService.name) == .serving)
            let error = try await #require(throws: RPCError.self) { try await client.health.check(service: "no.such.v1.Service") }
            #expect(error.code == .notFound)
            var statuses = try await client.health.watch().makeAsyncIterator()
            #expect(try await statuses.next()?.status == .serving)
        }
    }
}
