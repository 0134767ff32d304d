import CatalogClient
import Testing

/// The Filters service is not routed on this branch yet (issue 4, written in main): each
/// method is checked to reach its own `/catalog.v1.Filters/<Method>` path, which the server
/// answers UNIMPLEMENTED naming that path. Once Filters is served, these become calls
/// against the real service (define, get, list, select, presentation, delete).
@Suite("client.filters reaches the Filters paths")
struct FiltersClientTests {
    private static func expectUnimplemented(
        _ method: String,
        _ call: () async throws(RPCError) -> Void
    ) async {
        do {
            try await call()
            Issue.record("\(method) answered OK; Filters is served now: test the real behaviour")
        } catch {
            #expect(error.code == .unimplemented, "\(error)")
            #expect(error.message.contains("/catalog.v1.Filters/\(method)"), "\(error)")
        }
    }

    @Test("every unary Filters method calls its own path")
    func paths() async throws {
        try await withConnectedClient { client in
            let filters = client.filters
            await Self.expectUnimplemented("Define") { () throws(RPCError) in
                _ = try await filters.define("formations", title: "Catégories", options: [FilterOption(id: 1, title: "Family")])
            }
            await Self.expectUnimplemented("Get") { () throws(RPCError) in _ = try await filters.get("categories") }
            await Self.expectUnimplemented("List") { () throws(RPCError) in _ = try await filters.list() }
            await Self.expectUnimplemented("Select") { () throws(RPCError) in
                _ = try await filters.select("categories", optionId: 1, toggle: true)
            }
            await Self.expectUnimplemented("SetPresentation") { () throws(RPCError) in
                _ = try await filters.setPresentation("categories", to: .collapsed)
            }
            await Self.expectUnimplemented("TogglePresentation") { () throws(RPCError) in
                _ = try await filters.togglePresentation("categories")
            }
            await Self.expectUnimplemented("Delete") { () throws(RPCError) in try await filters.delete("formations") }
        }
    }
}
