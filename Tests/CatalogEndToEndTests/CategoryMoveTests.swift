import CatalogAPI
import Foundation
import RPCCore
import Testing

@Suite("Categories: Move over the wire")
struct CategoryMoveTests {
    @Test("Move up and down swap neighbours, answer the new order and bump the revisions of the moved ones")
    func upAndDown() async throws {
        try await withCatalogServer { server in
            let before = try await server.categories()
            let games = try #require(before.first { $0.name == "Games" })
            let cars = try #require(before.first { $0.name == "Cars" })
            let up = try await server.call(CategoriesService.move, MoveCategoryRequest(id: games.id, direction: .up)).categories
            #expect(up.map(\.name) == ["Family", "Games", "Cars", "Sports"])
            #expect(up == (try await server.categories()))
            let movedGames = try #require(up.first { $0.id == games.id })
            let movedCars = try #require(up.first { $0.id == cars.id })
            #expect(movedGames.revision == games.revision + 1)
            #expect(movedCars.revision == cars.revision + 1)
            #expect(up[0].revision == before[0].revision && up[3].revision == before[3].revision)

            let down = try await server.call(CategoriesService.move, MoveCategoryRequest(id: games.id, direction: .down)).categories
            #expect(down.map(\.name) == ["Family", "Cars", "Games", "Sports"])
        }
    }

    @Test("Move to a position shifts the categories in between", arguments: [(0, ["Sports", "Family", "Cars", "Games"]), (2, ["Family", "Cars", "Sports", "Games"]), (3, ["Family", "Cars", "Games", "Sports"])])
    func toPosition(position: Int, expected: [String]) async throws {
        try await withCatalogServer { server in
            let sports = try await server.category(named: "Sports")
            let order = try await server.call(CategoriesService.move, MoveCategoryRequest(id: sports.id, toPosition: position)).categories
            #expect(order.map(\.name) == expected)
            #expect(order.map(\.position) == [0, 1, 2, 3])
        }
    }

    @Test("Move of a category to the start, from the start to the end")
    func fromFirstToLast() async throws {
        try await withCatalogServer { server in
            let before = try await server.categories()
            let order = try await server.call(CategoriesService.move, MoveCategoryRequest(id: before[0].id, toPosition: 3)).categories
            #expect(order.map(\.name) == ["Cars", "Games", "Sports", "Family"])
            for category in order {
                let old = try #require(before.first { $0.id == category.id })
                #expect(category.revision == old.revision + 1, "every position changed")
            }
        }
    }

    @Test("Move of the first category up is FAILED_PRECONDITION alreadyFirst; of the last down, alreadyLast")
    func alreadyFirstAndLast() async throws {
        try await withCatalogServer { server in
            let categories = try await server.categories()
            try await server.expectError(
                CategoriesService.move, MoveCategoryRequest(id: categories[0].id, direction: .up),
                .failedPrecondition, reason: "alreadyFirst")
            try await server.expectError(
                CategoriesService.move, MoveCategoryRequest(id: categories[3].id, direction: .down),
                .failedPrecondition, reason: "alreadyLast")
        }
    }

    @Test("Move with both or neither of direction and toPosition is INVALID_ARGUMENT")
    func exactlyOneOf() async throws {
        try await withCatalogServer { server in
            let cars = try await server.category(named: "Cars")
            try await server.expectError(
                CategoriesService.move, MoveCategoryRequest(id: cars.id),
                .invalidArgument, reason: "invalidField", field: "direction")
            try await server.expectError(
                CategoriesService.move, MoveCategoryRequest(id: cars.id, direction: .up, toPosition: 0),
                .invalidArgument, reason: "invalidField", field: "toPosition")
        }
    }

    @Test("Move to a position outside 0..n-1 is INVALID_ARGUMENT on toPosition", arguments: [-1, 4, 100])
    func toPositionOutOfRange(position: Int) async throws {
        try await withCatalogServer { server in
            let cars = try await server.category(named: "Cars")
            try await server.expectError(
                CategoriesService.move, MoveCategoryRequest(id: cars.id, toPosition: position),
                .invalidArgument, reason: "invalidField", field: "toPosition")
        }
    }

    @Test("Move with a stale expectedRevision is ABORTED revisionMismatch; with the current one it moves")
    func expectedRevision() async throws {
        try await withCatalogServer { server in
            let cars = try await server.category(named: "Cars")
            try await server.expectError(
                CategoriesService.move, MoveCategoryRequest(id: cars.id, direction: .up, expectedRevision: cars.revision + 5),
                .aborted, reason: "revisionMismatch")
            let order = try await server.call(
                CategoriesService.move, MoveCategoryRequest(id: cars.id, direction: .up, expectedRevision: cars.revision)).categories
            #expect(order.first?.id == cars.id)
        }
    }

    @Test("Move of a missing category is NOT_FOUND with its id")
    func missing() async throws {
        try await withCatalogServer { server in
            try await server.expectError(
                CategoriesService.move, MoveCategoryRequest(id: 321, direction: .up), .notFound, reason: "notFound", id: 321)
        }
    }
}
