import CatalogAPI
import CatalogServices
import CatalogServicesTestSupport
import CatalogStore
import CatalogTestSupport
import InMemoryLogging
import Logging
import RPCCore
import TestSupport
import Testing

/// catalogd's access log through the real app: one entry per call, naming the token that
/// made it, never the token itself nor its hash.
@Suite("Access log of the catalog server", .timeLimit(.minutes(1)))
struct CatalogAccessLogTests {
    @Test("one entry per call with method, status and token name; no token text or hash anywhere in the log")
    func entries() async throws {
        let log = InMemoryLogHandler()
        let handler = log
        try await withCatalogServer(
            authorizer: TokenAuthorizer(tokens: try TestTokens.tokenSet()),
            configure: { $0.accessLogLevel = .info },
            logger: Logger(label: "test.catalog.access") { _ in handler }
        ) { server in
            let reader = TestTokens.options(TestTokens.reader)
            _ = try await server.client.unary(CategoriesService.list, ListCategoriesRequest(), options: reader)
            let denied = try await #require(throws: RPCError.self) {
                try await server.client.unary(CategoriesService.create, CreateCategoryRequest(name: "Books"), options: reader)
            }
            #expect(denied.code == .permissionDenied)
            let anonymous = try await #require(throws: RPCError.self) {
                try await server.client.unary(CategoriesService.list, ListCategoriesRequest())
            }
            #expect(anonymous.code == .unauthenticated)
            _ = try await server.client.unary(Health.check, HealthCheckRequest())
            let watch = await server.firstAnswer(
                FiltersService.watch.descriptor, body: #"{"filterId": "categories"}"#, authorization: "Bearer \(TestTokens.admin)")
            #expect((try? watch.get()) != nil, "\(watch)")
        }
        // The server has shut down: every call, the cancelled Watch included, is logged.
        let calls = log.entries.filter { $0.message == "call" }.map { $0.metadata.mapValues { "\($0)" } }
        #expect(calls.map { $0["method"] } == [
            "/catalog.v1.Categories/List", "/catalog.v1.Categories/Create", "/catalog.v1.Categories/List",
            "/grpc.health.v1.Health/Check", "/catalog.v1.Filters/Watch",
        ])
        #expect(calls.map { $0["status"] }.dropLast() == ["OK", "PERMISSION_DENIED", "UNAUTHENTICATED", "OK"])
        // The Watch ends with the client's reset or, when the shutdown gets there first, UNAVAILABLE.
        #expect(["CANCELLED", "UNAVAILABLE"].contains(calls.last?["status"]), "\(calls)")
        #expect(calls.map { $0["caller"] } == ["alice", "alice", nil, nil, "carol"])
        #expect(calls.allSatisfy { $0["duration_ms"].flatMap(Double.init) != nil && $0["peer"] != nil }, "\(calls)")

        let everything = log.entries.map { "\($0)" }.joined(separator: "\n")
        for token in [TestTokens.reader, TestTokens.writer, TestTokens.admin] {
            #expect(!everything.contains(token))
            #expect(!everything.contains(TestTokens.sha256Hex(token)))
        }
    }
}
