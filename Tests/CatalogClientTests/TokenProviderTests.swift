import CatalogKit
import CatalogTesting
import Synchronization
import Testing

/// `Configuration.tokenProvider`: asked before each call, so a rotated token needs no new
/// client; a call's own token wins; a provider's failure fails the call.
@Suite("Token provider")
struct TokenProviderTests {
    struct Expired: Error, CustomStringConvertible {
        var description: String { "the session expired" }
    }

    @Test("asked before every call and every Watch; a rotated token is used at once; a call's own token is not replaced")
    func rotation() async throws {
        let catalog = try await InProcessCatalog.start(tokens: [("old", .reader, "old-secret"), ("new", .writer, "new-secret")])
        let current = Mutex("old-secret")
        let asked = Atomic(0)
        var configuration = CatalogClient.Configuration.defaults
        configuration.tokenProvider = {
            asked.add(1, ordering: .relaxed)
            return current.withLock { $0 }
        }
        let client = catalog.newClient(configuration: configuration)
        #expect(try await client.categories.list().count == 4)
        let denied = try await #require(throws: RPCError.self) { try await client.filters.select("categories", optionId: 1) }
        #expect(denied.code == .permissionDenied, "the reader's token")
        current.withLock { $0 = "new-secret" }
        #expect(try await client.filters.select("categories", optionId: 1).selectedId == 1, "the writer's token, with the same client")
        #expect(asked.load(ordering: .relaxed) == 3)

        var own = CallOptions()
        own.bearerToken = "old-secret"
        let ownDenied = try await #require(throws: RPCError.self) { try await client.filters.select("categories", options: own) }
        #expect(ownDenied.code == .permissionDenied, "the call's own token was sent")
        #expect(asked.load(ordering: .relaxed) == 3, "and the provider was not asked")

        var events = client.filters.watch("categories").makeAsyncIterator()
        #expect(try await events.next()?.kind == .snapshot)
        #expect(asked.load(ordering: .relaxed) == 4, "a Watch asks too")
        await catalog.close()
    }

    @Test("a provider that throws fails the call with UNAUTHENTICATED and its error; one that gives nil sends no token")
    func failures() async throws {
        let catalog = try await InProcessCatalog.start(tokens: [("ci", .admin, "ci-secret")])
        var throwing = CatalogClient.Configuration.defaults
        throwing.tokenProvider = { throw Expired() }
        let failed = try await #require(throws: RPCError.self) { try await catalog.newClient(configuration: throwing).categories.list() }
        #expect(failed.code == .unauthenticated && failed.message == "the token provider failed: the session expired")
        var none = CatalogClient.Configuration.defaults
        none.tokenProvider = { nil }
        let anonymous = try await #require(throws: RPCError.self) {
            try await catalog.newClient(bearerToken: "ci-secret", configuration: none).categories.list()
        }
        #expect(anonymous.code == .unauthenticated, "the provider's nil replaces the client's default token")
        await catalog.close()
    }
}
