import CatalogAPI
import Foundation
import RPCCore
import Testing

@Suite("Filters: Define, Get, List, Select, presentation and Delete over the wire")
struct FiltersRPCTests {
    static let levels = DefineFilterRequest(
        filterId: "levels", title: "Niveaux",
        options: [FilterOption(id: 1, title: "Débutant", icon: "leaf"), FilterOption(id: 2, title: "Avancé"), FilterOption(id: 3, title: "Expert")])

    /// Calls `method` expecting `code` and `reason`, and that no filter changed.
    func expectFilterError<Request, Response>(
        _ server: CatalogTestServer, _ method: UnaryMethod<Request, Response>, _ request: Request, _ code: StatusCode,
        reason: String, field: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let before = try await server.client.unary(FiltersService.list, Empty())
        let error = try await #require(throws: RPCError.self, sourceLocation: sourceLocation) {
            try await server.client.unary(method, request)
        }
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        #expect(error.detail?.reason == reason, "\(error)", sourceLocation: sourceLocation)
        if let field { #expect(error.detail?.field == field, "\(error)", sourceLocation: sourceLocation) }
        #expect(try await server.client.unary(FiltersService.list, Empty()) == before, "a failed call changed a filter", sourceLocation: sourceLocation)
    }

    @Test("a fresh server has the built-in categories filter mirroring the default categories")
    func builtinFilter() async throws {
        try await withCatalogServer { server in
            let state = try await server.client.unary(FiltersService.get, FilterIDRequest(filterId: "categories"))
            let categories = try await server.categories()
            #expect(state.options == categories.map { FilterOption(id: $0.id, title: $0.name, icon: $0.icon) })
            #expect(state.options.map(\.title) == ["Family", "Cars", "Games", "Sports"])
            #expect(state.selectedId == nil)
            #expect(state.presentation == .expanded)
            #expect(state.revision == 1)
            #expect(state.source == .categories)
            #expect(try await server.client.unary(FiltersService.list, Empty()).filters == [state])
        }
    }

    @Test("Define creates at revision 1, an identical Define changes nothing, a different one bumps by 1")
    func define() async throws {
        try await withCatalogServer { server in
            let created = try await server.client.unary(FiltersService.define, Self.levels)
            #expect(created.revision == 1)
            #expect(created.options.map(\.title) == ["Débutant", "Avancé", "Expert"])
            #expect(created.source == nil)
            #expect(try await server.client.unary(FiltersService.define, Self.levels) == created)
            var renamed = Self.levels
            renamed.title = "Levels"
            let next = try await server.client.unary(FiltersService.define, renamed)
            #expect(next.revision == 2)
            #expect(next.title == "Levels")
            #expect(try await server.client.unary(FiltersService.get, FilterIDRequest(filterId: "levels")) == next)
            #expect(try await server.client.unary(FiltersService.list, Empty()).filters.map(\.filterId) == ["categories", "levels"])
        }
    }

    @Test("Select sets, toggles and clears; a write that changes nothing keeps the revision")
    func select() async throws {
        try await withCatalogServer { server in
            _ = try await server.client.unary(FiltersService.define, Self.levels)
            let selected = try await server.client.unary(FiltersService.select, SelectFilterRequest(filterId: "levels", optionId: 2))
            #expect(selected.selectedId == 2)
            #expect(selected.revision == 2)
            let again = try await server.client.unary(FiltersService.select, SelectFilterRequest(filterId: "levels", optionId: 2))
            #expect(again == selected, "selecting the selected option without toggle changes nothing")
            let toggled = try await server.client.unary(FiltersService.select, SelectFilterRequest(filterId: "levels", optionId: 2, toggle: true))
            #expect(toggled.selectedId == nil)
            #expect(toggled.revision == 3)
            let other = try await server.client.unary(FiltersService.select, SelectFilterRequest(filterId: "levels", optionId: 3, toggle: true))
            #expect(other.selectedId == 3)
            #expect(other.revision == 4)
            let all = try await server.client.unary(FiltersService.select, SelectFilterRequest(filterId: "levels"))
            #expect(all.selectedId == nil)
            #expect(all.revision == 5)
            let stillAll = try await server.client.unary(FiltersService.select, SelectFilterRequest(filterId: "levels"))
            #expect(stillAll.revision == 5)
        }
    }

    @Test("SetPresentation and TogglePresentation, with no-ops keeping the revision")
    func presentation() async throws {
        try await withCatalogServer { server in
            let id = FilterIDRequest(filterId: "categories")
            let collapsed = try await server.client.unary(FiltersService.setPresentation, SetPresentationRequest(filterId: "categories", presentation: .collapsed))
            #expect(collapsed.presentation == .collapsed)
            #expect(collapsed.revision == 2)
            let same = try await server.client.unary(FiltersService.setPresentation, SetPresentationRequest(filterId: "categories", presentation: .collapsed))
            #expect(same.revision == 2)
            let toggled = try await server.client.unary(FiltersService.togglePresentation, id)
            #expect(toggled.presentation == .expanded)
            #expect(toggled.revision == 3)
        }
    }

    @Test("errors: unknown filter and option, built-in filter, invalid fields")
    func errors() async throws {
        try await withCatalogServer { server in
            _ = try await server.client.unary(FiltersService.define, Self.levels)
            try await expectFilterError(server, FiltersService.get, FilterIDRequest(filterId: "nope"), .notFound, reason: "unknownFilter")
            try await expectFilterError(server, FiltersService.select, SelectFilterRequest(filterId: "nope", optionId: 1), .notFound, reason: "unknownFilter")
            let unknownOption = try await #require(throws: RPCError.self) {
                try await server.client.unary(FiltersService.select, SelectFilterRequest(filterId: "levels", optionId: 99))
            }
            #expect(unknownOption.code == .notFound)
            #expect(unknownOption.detail?.reason == "unknownOption")
            #expect(unknownOption.detail?.details?["id"]?.intValue == 99)
            try await expectFilterError(server, FiltersService.delete, FilterIDRequest(filterId: "categories"), .failedPrecondition, reason: "builtinFilter")
            try await expectFilterError(
                server, FiltersService.define, DefineFilterRequest(filterId: "categories", title: "Mine", options: []), .failedPrecondition,
                reason: "builtinFilter")
            try await expectFilterError(
                server, FiltersService.define, DefineFilterRequest(filterId: "Bad Id", title: "x"), .invalidArgument, reason: "invalidField",
                field: "filterId")
            try await expectFilterError(
                server, FiltersService.define, DefineFilterRequest(filterId: "x", title: "  "), .invalidArgument, reason: "invalidField",
                field: "title")
            try await expectFilterError(
                server, FiltersService.define,
                DefineFilterRequest(filterId: "x", title: "X", options: [FilterOption(id: 1, title: "a"), FilterOption(id: 1, title: "b")]),
                .invalidArgument, reason: "invalidField", field: "options[1].id")
            try await expectFilterError(
                server, FiltersService.define, DefineFilterRequest(filterId: "x", title: "X", options: [], source: .categories),
                .invalidArgument, reason: "invalidField", field: "source")
            let badPresentation = try await #require(throws: RPCError.self) {
                _ = try await server.rawCall(FiltersService.setPresentation.descriptor, json: #"{"filterId": "levels", "presentation": "sideways"}"#)
            }
            #expect(badPresentation.code == .invalidArgument)
        }
    }

    @Test("Delete removes a filter; a new Define of the same id continues its revisions")
    func deleteAndRedefine() async throws {
        try await withCatalogServer { server in
            _ = try await server.client.unary(FiltersService.define, Self.levels)
            let last = try await server.client.unary(FiltersService.select, SelectFilterRequest(filterId: "levels", optionId: 1))
            #expect(last.revision == 2)
            _ = try await server.client.unary(FiltersService.delete, FilterIDRequest(filterId: "levels"))
            try await expectFilterError(server, FiltersService.get, FilterIDRequest(filterId: "levels"), .notFound, reason: "unknownFilter")
            try await expectFilterError(server, FiltersService.delete, FilterIDRequest(filterId: "levels"), .notFound, reason: "unknownFilter")
            let again = try await server.client.unary(FiltersService.define, Self.levels)
            #expect(again.revision == 3, "revisions never go backwards across Delete and Define")
        }
    }

    @Test("category writes change the bound filter's options in the same revision, and clear a vanished selection")
    func boundToCategories() async throws {
        try await withCatalogServer { server in
            let bound = try await server.client.unary(
                FiltersService.define, DefineFilterRequest(filterId: "formations", title: "Catégories", source: .categories))
            #expect(bound.options.count == 4)
            let created = try await server.call(CategoriesService.create, CreateCategoryRequest(name: "IA Générative", icon: "sparkles"))
            var state = try await server.client.unary(FiltersService.get, FilterIDRequest(filterId: "formations"))
            #expect(state.revision == bound.revision + 1)
            #expect(state.options.last == FilterOption(id: created.id, title: "IA Générative", icon: "sparkles"))

            state = try await server.client.unary(FiltersService.select, SelectFilterRequest(filterId: "formations", optionId: created.id))
            _ = try await server.call(CategoriesService.move, MoveCategoryRequest(id: created.id, toPosition: 0))
            state = try await server.client.unary(FiltersService.get, FilterIDRequest(filterId: "formations"))
            #expect(state.options.first?.id == created.id)
            #expect(state.selectedId == created.id)

            _ = try await server.call(CategoriesService.delete, DeleteCategoryRequest(id: created.id))
            let after = try await server.client.unary(FiltersService.get, FilterIDRequest(filterId: "formations"))
            #expect(after.revision == state.revision + 1, "deletion and clearing are one revision")
            #expect(after.selectedId == nil)
            #expect(!after.options.contains { $0.id == created.id })
            let builtin = try await server.client.unary(FiltersService.get, FilterIDRequest(filterId: "categories"))
            #expect(builtin.options == after.options)
        }
    }
}
