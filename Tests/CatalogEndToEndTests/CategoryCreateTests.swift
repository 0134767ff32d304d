import CatalogAPI
import Foundation
import RPCCore
import Testing

@Suite("Categories: a fresh store, Create and Get over the wire")
struct CategoryCreateTests {
    @Test("a fresh store holds Family, Cars, Games and Sports, all default, at positions 0 to 3")
    func freshStoreDefaults() async throws {
        try await withCatalogServer { server in
            try await server.checkInvariants()
            let categories = try await server.categories()
            #expect(categories.map(\.name) == ["Family", "Cars", "Games", "Sports"])
            #expect(categories.map(\.slug) == ["family", "cars", "games", "sports"])
            #expect(categories.map(\.position) == [0, 1, 2, 3])
            #expect(categories.allSatisfy { $0.isDefault })
            #expect(categories.allSatisfy { $0.itemCount == 0 })
            let stats = try await server.call(CategoriesService.stats, Empty())
            #expect(stats.categoryCount == 4 && stats.itemCount == 0 && stats.emptyCategoryCount == 4)
        }
    }

    @Test("Palette answers the contract's 12 colours in order")
    func palette() async throws {
        try await withCatalogServer { server in
            let palette = try await server.call(CategoriesService.palette, Empty())
            #expect(palette.colors == contractPalette)
        }
    }

    @Test("Create trims the name, normalizes the slug and appends at the end")
    func createTrimsAndSlugs() async throws {
        try await withCatalogServer { server in
            let created = try await server.createCategory("  IA   Ge\u{301}ne\u{301}rative \t")
            #expect(created.name == "IA   Ge\u{301}ne\u{301}rative")
            #expect(created.slug == "ia_générative")
            #expect(created.slug.unicodeScalars.elementsEqual("ia_g\u{E9}n\u{E9}rative".unicodeScalars))
            #expect(created.position == 4)
            #expect(!created.isDefault)
            #expect(created.itemCount == 0)
            #expect(created.icon == nil)
            let fetched = try await server.call(CategoriesService.get, IDRequest(id: created.id))
            #expect(fetched == created)
            #expect(try await server.categories().last == created)
        }
    }

    @Test("Create without a colour takes the palette colour at position modulo 12")
    func paletteColourByPosition() async throws {
        try await withCatalogServer { server in
            // Positions 4...13 after the four defaults: wraps around the palette.
            for position in 4...13 {
                let created = try await server.createCategory("Category \(position)")
                #expect(created.position == position)
                #expect(created.color == contractPalette[position % 12], "position \(position)")
            }
        }
    }

    @Test("Create upper-cases an explicit colour and keeps a valid icon")
    func explicitColourAndIcon() async throws {
        try await withCatalogServer { server in
            let created = try await server.createCategory("Photos", color: "#9c27b0", icon: "camera.fill2")
            #expect(created.color == "#9C27B0")
            #expect(created.icon == "camera.fill2")
            let longest = String(repeating: "a", count: 64)
            #expect(try await server.createCategory("Longest icon", icon: longest).icon == longest)
        }
    }

    @Test(
        "Create refuses an invalid icon with INVALID_ARGUMENT on field icon",
        arguments: ["Sparkles", "sparkles-fill", "star fill", "é", String(repeating: "a", count: 65)])
    func invalidIcon(icon: String) async throws {
        try await withCatalogServer { server in
            try await server.expectError(
                CategoriesService.create, CreateCategoryRequest(name: "Photos", icon: icon),
                .invalidArgument, reason: "invalidField", field: "icon")
        }
    }

    @Test("Create refuses an invalid colour with INVALID_ARGUMENT on field color", arguments: ["red", "#12345", "#1234567", "#GGGGGG", "123456"])
    func invalidColour(color: String) async throws {
        try await withCatalogServer { server in
            try await server.expectError(
                CategoriesService.create, CreateCategoryRequest(name: "Photos", color: color),
                .invalidArgument, reason: "invalidField", field: "color")
        }
    }

    @Test(
        "Create refuses an empty, too long or control-character name with INVALID_ARGUMENT on field name",
        arguments: ["", "   \t\n ", String(repeating: "x", count: 51), "Bad\u{0007}Name", "Tab\tInside", "Del\u{7F}"])
    func invalidName(name: String) async throws {
        try await withCatalogServer { server in
            try await server.expectError(
                CategoriesService.create, CreateCategoryRequest(name: name),
                .invalidArgument, reason: "invalidField", field: "name")
        }
    }

    @Test("a name of 50 grapheme clusters is accepted, even when they are many scalars")
    func fiftyGraphemes() async throws {
        try await withCatalogServer { server in
            let name = String(repeating: "e\u{301}", count: 50)
            let created = try await server.createCategory(name)
            #expect(created.name.count == 50)
            try await server.expectError(
                CategoriesService.create, CreateCategoryRequest(name: name + "e"),
                .invalidArgument, reason: "invalidField", field: "name")
        }
    }

    @Test("a name of two characters in 1.9 MB (950 000 combining marks) is INVALID_ARGUMENT on field name; Update too")
    func combiningMarkName() async throws {
        try await withCatalogServer { server in
            let huge = "1e" + String(repeating: "\u{301}", count: 950_000)
            let error = try await server.expectError(
                CategoriesService.create, CreateCategoryRequest(name: huge), .invalidArgument, reason: "invalidField", field: "name")
            #expect(error?.message.contains("400 bytes") == true, "\(String(describing: error))")
            let family = try await server.category(named: "Family")
            try await server.expectError(
                CategoriesService.update, UpdateCategoryRequest(id: family.id, name: huge), .invalidArgument,
                reason: "invalidField", field: "name")
        }
    }

    @Test(
        "Create of a name whose slug is taken is ALREADY_EXISTS duplicateName with the existing id",
        arguments: ["family", "  FAMILY ", "Family"])
    func duplicateDefaultName(name: String) async throws {
        try await withCatalogServer { server in
            let family = try await server.category(named: "Family")
            try await server.expectError(
                CategoriesService.create, CreateCategoryRequest(name: name),
                .alreadyExists, reason: "duplicateName", id: family.id)
        }
    }

    @Test("names differing only in white space runs or normalization form share a slug")
    func duplicateBySlug() async throws {
        try await withCatalogServer { server in
            let first = try await server.createCategory("Ia Gén")
            for name in ["ia   gén", "IA \u{2003}Ge\u{301}n", "ia\u{A0}GÉN"] {
                try await server.expectError(
                    CategoriesService.create, CreateCategoryRequest(name: name),
                    .alreadyExists, reason: "duplicateName", id: first.id)
            }
        }
    }

    @Test("Get of a missing id is NOT_FOUND with that id")
    func getMissing() async throws {
        try await withCatalogServer { server in
            try await server.expectError(CategoriesService.get, IDRequest(id: 4242), .notFound, reason: "notFound", id: 4242)
        }
    }
}
