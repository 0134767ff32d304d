import CatalogAPI
import Foundation
import RPCCore
import Testing

@Suite("Categories: Update over the wire")
struct CategoryUpdateTests {
    @Test("Update renames (trimmed, new slug) and bumps the revision")
    func rename() async throws {
        try await withCatalogServer { server in
            let cars = try await server.category(named: "Cars")
            let updated = try await server.call(CategoriesService.update, UpdateCategoryRequest(id: cars.id, name: "  Vintage   Cars "))
            #expect(updated.name == "Vintage   Cars")
            #expect(updated.slug == "vintage_cars")
            #expect(updated.revision == cars.revision + 1)
            #expect(updated.position == cars.position)
            #expect(try await server.call(CategoriesService.get, IDRequest(id: cars.id)) == updated)
        }
    }

    @Test("Update of the colour upper-cases it, and clearing the icon with an empty one bumps the revision each time")
    func colourAndIcon() async throws {
        try await withCatalogServer { server in
            let created = try await server.createCategory("Photos", icon: "camera")
            let coloured = try await server.call(CategoriesService.update, UpdateCategoryRequest(id: created.id, color: "#00ff7f"))
            #expect(coloured.color == "#00FF7F")
            #expect(coloured.icon == "camera")
            #expect(coloured.revision == created.revision + 1)
            let cleared = try await server.call(CategoriesService.update, UpdateCategoryRequest(id: created.id, icon: ""))
            #expect(cleared.icon == nil)
            #expect(cleared.color == "#00FF7F")
            #expect(cleared.revision == coloured.revision + 1)
            let iconed = try await server.call(CategoriesService.update, UpdateCategoryRequest(id: created.id, icon: "star.fill"))
            #expect(iconed.icon == "star.fill")
            #expect(iconed.revision == cleared.revision + 1)
        }
    }

    @Test("Update may set isDefault, which bumps the revision")
    func setIsDefault() async throws {
        try await withCatalogServer { server in
            let games = try await server.category(named: "Games")
            let plain = try await server.call(CategoriesService.update, UpdateCategoryRequest(id: games.id, isDefault: false))
            #expect(!plain.isDefault)
            #expect(plain.revision == games.revision + 1)
            let created = try await server.createCategory("Photos")
            let promoted = try await server.call(CategoriesService.update, UpdateCategoryRequest(id: created.id, isDefault: true))
            #expect(promoted.isDefault)
            #expect(promoted.revision == created.revision + 1)
        }
    }

    @Test("a change of itemCount does not bump the revision")
    func itemCountDoesNotBumpRevision() async throws {
        try await withCatalogServer { server in
            let family = try await server.category(named: "Family")
            let item = try await server.createItem("Board games", categoryId: family.id)
            let holding = try await server.call(CategoriesService.get, IDRequest(id: family.id))
            #expect(holding.itemCount == 1)
            #expect(holding.revision == family.revision)
            try await server.call(CatalogService.deleteItem, IDRequest(id: item.id))
            let emptied = try await server.call(CategoriesService.get, IDRequest(id: family.id))
            #expect(emptied.itemCount == 0)
            #expect(emptied.revision == family.revision)
        }
    }

    @Test("Update with the current expectedRevision succeeds; with another one it is ABORTED revisionMismatch")
    func expectedRevision() async throws {
        try await withCatalogServer { server in
            let sports = try await server.category(named: "Sports")
            try await server.expectError(
                CategoriesService.update, UpdateCategoryRequest(id: sports.id, name: "Outdoor", expectedRevision: sports.revision + 1),
                .aborted, reason: "revisionMismatch")
            let renamed = try await server.call(
                CategoriesService.update, UpdateCategoryRequest(id: sports.id, name: "Outdoor", expectedRevision: sports.revision))
            try await server.expectError(
                CategoriesService.update, UpdateCategoryRequest(id: sports.id, color: "#000000", expectedRevision: sports.revision),
                .aborted, reason: "revisionMismatch")
            #expect(renamed.name == "Outdoor")
        }
    }

    @Test("Update to a name whose slug another category holds is ALREADY_EXISTS duplicateName with its id")
    func duplicateName() async throws {
        try await withCatalogServer { server in
            let cars = try await server.category(named: "Cars")
            let games = try await server.category(named: "Games")
            try await server.expectError(
                CategoriesService.update, UpdateCategoryRequest(id: games.id, name: " CARS"),
                .alreadyExists, reason: "duplicateName", id: cars.id)
            // A category may keep its own slug with another case.
            let recased = try await server.call(CategoriesService.update, UpdateCategoryRequest(id: cars.id, name: "CARS"))
            #expect(recased.slug == "cars")
        }
    }

    @Test("Update rejects invalid fields with INVALID_ARGUMENT naming them")
    func invalidFields() async throws {
        try await withCatalogServer { server in
            let family = try await server.category(named: "Family")
            try await server.expectError(
                CategoriesService.update, UpdateCategoryRequest(id: family.id, name: " "),
                .invalidArgument, reason: "invalidField", field: "name")
            try await server.expectError(
                CategoriesService.update, UpdateCategoryRequest(id: family.id, name: String(repeating: "n", count: 51)),
                .invalidArgument, reason: "invalidField", field: "name")
            try await server.expectError(
                CategoriesService.update, UpdateCategoryRequest(id: family.id, name: "A\u{0}B"),
                .invalidArgument, reason: "invalidField", field: "name")
            try await server.expectError(
                CategoriesService.update, UpdateCategoryRequest(id: family.id, color: "#12"),
                .invalidArgument, reason: "invalidField", field: "color")
            try await server.expectError(
                CategoriesService.update, UpdateCategoryRequest(id: family.id, icon: "Home"),
                .invalidArgument, reason: "invalidField", field: "icon")
        }
    }

    @Test("Update of a missing category is NOT_FOUND with its id")
    func missing() async throws {
        try await withCatalogServer { server in
            try await server.expectError(
                CategoriesService.update, UpdateCategoryRequest(id: 99, name: "Ghost"), .notFound, reason: "notFound", id: 99)
        }
    }
}
