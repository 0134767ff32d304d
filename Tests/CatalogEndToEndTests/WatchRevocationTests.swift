import CatalogAPI
import CatalogServices
import CatalogServicesTestSupport
import CatalogStore
import CatalogTestSupport
import Foundation
import RPCCore
import TestSupport
import Testing

/// A Watch stays open only while the server's tokens still allow it: after new tokens,
/// `FilterHub.endUnauthorizedWatches()` ends the others (catalogd calls it on SIGHUP; see
/// CatalogdTests for the signal itself).
@Suite("Filters: Watch streams end when their token is withdrawn")
struct WatchRevocationTests {
    /// The fixtures' tokens without alice (the reader).
    static func tokensWithoutAlice() throws -> TokenSet {
        let file = TestTokens.fileJSON([("bob", "writer", TestTokens.writer), ("carol", "admin", TestTokens.admin)])
        return try TokenFile.parse(Data(file.utf8), path: "test-tokens.json")
    }

    @Test("an open Watch whose token is gone ends UNAUTHENTICATED after its events; one whose token stayed goes on")
    func revokedWatchEnds() async throws {
        let authorizer = TokenAuthorizer(tokens: try TestTokens.tokenSet())
        try await withCatalogServer(authorizer: authorizer) { server in
            let alice = try await WatchReader.openSynced(
                server.client, WatchFilterRequest(filterId: "categories"), options: TestTokens.options(TestTokens.reader))
            let bob = try await WatchReader.openSynced(
                server.client, WatchFilterRequest(filterId: "categories"), options: TestTokens.options(TestTokens.writer))

            authorizer.replaceTokens(with: try Self.tokensWithoutAlice())
            #expect(server.app.filters.endUnauthorizedWatches() == 1)

            let ended = try await #require(throws: RPCError.self) { _ = try await alice.nextOrEnd() }
            #expect(ended.code == .unauthenticated)
            #expect(ended.message == "the Watch is no longer authorized: the bearer token is not known to this server")
            #expect(ended.detail?.reason == "unauthenticated")
            try await FilterWatchTests.waitForSubscribers(server, 1)

            _ = try await server.client.unary(
                CategoriesService.create, CreateCategoryRequest(name: "Books"), options: TestTokens.options(TestTokens.admin))
            #expect(try await bob.next().kind == .change)
            bob.cancel()
        }
    }

    @Test("a Watch whose headers passed before the tokens changed, and whose request came after the sweep, is refused")
    func requestAfterTheSweep() async throws {
        let authorizer = TokenAuthorizer(tokens: try TestTokens.tokenSet())
        try await withCatalogServer(authorizer: authorizer) { server in
            let call = try await server.connection.openCall(
                FiltersService.watch.descriptor, options: TestTokens.options(TestTokens.reader))
            defer { call.cancel() }
            // The server reads a connection's frames in order: once a later call on it is
            // answered, the Watch's headers have been let through.
            _ = try await server.client.unary(Health.check, HealthCheckRequest())

            authorizer.replaceTokens(with: try Self.tokensWithoutAlice())
            #expect(server.app.filters.endUnauthorizedWatches() == 0)
            try await call.send(try JSONCodec().encode(WatchFilterRequest(filterId: "categories")), endOfStream: true)

            let refused = try await #require(throws: RPCError.self) { _ = try await call.receive() }
            #expect(refused.code == .unauthenticated)
            #expect(server.app.filters.subscriberTotal == 0)
        }
    }
}
