import CatalogAPI
import CatalogServices
import CatalogServicesTestSupport
import CatalogStore
import CatalogTestSupport
import RPCCore
import RPCHTTP2
import TestSupport
import Testing

/// The Watch subscriber limits per connection and per caller beside the server's (contract:
/// Filters, Watch semantics): one caller cannot take every slot.
@Suite("Filters: Watch slots shared between connections and callers")
struct WatchFairnessTests {
    static let categories = WatchFilterRequest(filterId: "categories")

    /// Limits of 100 but for the ones given.
    static func limits(perConnection: Int = 100, perCaller: Int = 100) -> FilterHub.Limits {
        var limits = FilterHub.Limits()
        limits.maxSubscribers = 100
        limits.maxSubscribersPerConnection = perConnection
        limits.maxSubscribersPerCaller = perCaller
        return limits
    }

    /// Opens a Watch and reads its snapshot.
    static func subscribe(
        _ client: RPCClient, token: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> WatchReader {
        let watch = try await WatchReader.open(client, categories, options: token.map(TestTokens.options) ?? .defaults)
        #expect(try await watch.next(sourceLocation: sourceLocation).kind == .snapshot, sourceLocation: sourceLocation)
        return watch
    }

    /// The error a Watch ends with before its first event.
    static func refusal(_ client: RPCClient, token: String? = nil) async throws -> RPCError {
        let watch = try await WatchReader.open(client, categories, options: token.map(TestTokens.options) ?? .defaults)
        return try await #require(throws: RPCError.self) { _ = try await watch.nextOrEnd() }
    }

    @Test("by default a connection may fill half of its streams with Watches, and a caller a tenth of the server's slots")
    func defaults() {
        let limits = FilterHub.Limits()
        #expect(limits.maxSubscribersPerConnection * 2 == HTTP2ServerConfiguration.defaults.maxConcurrentStreams)
        #expect(limits.maxSubscribersPerCaller == nil)
        #expect(limits.effectiveMaxSubscribersPerCaller == limits.maxSubscribers / 10)
        var small = FilterHub.Limits()
        small.maxSubscribers = 5
        #expect(small.effectiveMaxSubscribersPerCaller == 1)
    }

    @Test("a caller at its per-caller limit, on any connection, is RESOURCE_EXHAUSTED naming that limit; another caller still subscribes")
    func perCallerLimit() async throws {
        let authorizer = TokenAuthorizer(tokens: try TestTokens.tokenSet())
        try await withCatalogServer(filterLimits: Self.limits(perCaller: 3), authorizer: authorizer) { server in
            let other = RPCClient(transport: try await server.connect())
            var alice = [
                try await Self.subscribe(server.client, token: TestTokens.reader),
                try await Self.subscribe(other, token: TestTokens.reader),
                try await Self.subscribe(other, token: TestTokens.reader),
            ]
            let refused = try await Self.refusal(server.client, token: TestTokens.reader)
            #expect(refused.code == .resourceExhausted)
            #expect(refused.message == "too many Watch subscribers for the caller 'alice' (per-caller limit 3)")
            #expect(refused.detail?.reason == "tooManySubscribers")
            #expect(refused.detail?.details?["scope"] == .string("caller"))
            #expect(refused.detail?.details?["limit"] == .number(3))

            let bob = try await Self.subscribe(server.client, token: TestTokens.writer)
            alice.removeFirst().cancel()
            try await FilterWatchTests.waitForSubscribers(server, 3)
            alice.append(try await Self.subscribe(server.client, token: TestTokens.reader))
            for watch in alice + [bob] { watch.cancel() }
            try await FilterWatchTests.waitForSubscribers(server, 0)
        }
    }

    @Test("on a server without tokens the caller is the peer's IP address, whatever its connection")
    func perAddressLimit() async throws {
        try await withCatalogServer(filterLimits: Self.limits(perCaller: 2)) { server in
            let other = RPCClient(transport: try await server.connect())
            let watches = [try await Self.subscribe(server.client), try await Self.subscribe(other)]
            let refused = try await Self.refusal(server.client)
            #expect(refused.code == .resourceExhausted)
            #expect(refused.message == "too many Watch subscribers from 127.0.0.1 (per-caller limit 2)")
            #expect(refused.detail?.details?["scope"] == .string("caller"))
            for watch in watches { watch.cancel() }
        }
    }

    @Test("a connection at its per-connection limit is RESOURCE_EXHAUSTED naming that limit; the same caller still subscribes on another")
    func perConnectionLimit() async throws {
        try await withCatalogServer(filterLimits: Self.limits(perConnection: 2)) { server in
            var first = [try await Self.subscribe(server.client), try await Self.subscribe(server.client)]
            let refused = try await Self.refusal(server.client)
            #expect(refused.code == .resourceExhausted)
            #expect(refused.message == "too many Watch subscribers on this connection (per-connection limit 2)")
            #expect(refused.detail?.reason == "tooManySubscribers")
            #expect(refused.detail?.details?["scope"] == .string("connection"))
            #expect(refused.detail?.details?["limit"] == .number(2))

            let other = try await Self.subscribe(RPCClient(transport: try await server.connect()))
            first.removeFirst().cancel()
            try await FilterWatchTests.waitForSubscribers(server, 2)
            first.append(try await Self.subscribe(server.client))
            for watch in first + [other] { watch.cancel() }
            try await FilterWatchTests.waitForSubscribers(server, 0)
        }
    }

    @Test("past the server's limit the message names it")
    func serverLimit() async throws {
        var limits = Self.limits()
        limits.maxSubscribers = 2
        try await withCatalogServer(filterLimits: limits) { server in
            let watches = [try await Self.subscribe(server.client), try await Self.subscribe(server.client)]
            let refused = try await Self.refusal(RPCClient(transport: try await server.connect()))
            #expect(refused.code == .resourceExhausted)
            #expect(refused.message == "too many Watch subscribers on the server (server limit 2)")
            #expect(refused.detail?.details?["scope"] == .string("server"))
            for watch in watches { watch.cancel() }
        }
    }
}
