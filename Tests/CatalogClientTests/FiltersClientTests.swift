import CatalogKit
import Testing

@Suite("client.filters against the real Filters service")
struct FiltersClientTests {
    @Test("define, get, list, select, presentation and delete round-trip through the typed methods")
    func unaryMethods() async throws {
        try await withConnectedClient { client in
            let filters = client.filters
            let defined = try await filters.define(
                "formations", title: "Niveaux", options: [FilterOption(id: 1, title: "Débutant"), FilterOption(id: 2, title: "Expert")])
            #expect(defined.revision == 1)
            #expect(try await filters.get("formations") == defined)
            #expect(try await filters.list().map(\.filterId) == ["categories", "formations"])

            let selected = try await filters.select("formations", optionId: 2, toggle: true)
            #expect(selected.selectedId == 2)
            #expect(selected.revision == 2)
            let cleared = try await filters.select("formations", optionId: 2, toggle: true)
            #expect(cleared.selectedId == nil)

            let collapsed = try await filters.setPresentation("formations", to: .collapsed)
            #expect(collapsed.presentation == .collapsed)
            let expanded = try await filters.togglePresentation("formations")
            #expect(expanded.presentation == .expanded)
            #expect(expanded.revision == 5)

            try await filters.delete("formations")
            let error = try await #require(throws: RPCError.self) { _ = try await filters.get("formations") }
            #expect(error.code == .notFound)
            #expect(error.reason == "unknownFilter")
            let builtin = try await #require(throws: RPCError.self) { try await filters.delete("categories") }
            #expect(builtin.reason == "builtinFilter")
        }
    }
}
