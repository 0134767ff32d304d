import CatalogAPI
import Foundation
import RPCCore
import Testing

@Suite("Categories: Merge, AssignItems, MoveItems and Stats over the wire")
struct CategoryItemsTests {
    @Test("Merge moves the sources' items to the target, deletes the sources and keeps positions dense")
    func merge() async throws {
        try await withCatalogServer { server in
            let a = try await server.createCategory("A")
            let b = try await server.createCategory("B")
            let c = try await server.createCategory("C")
            let cars = try await server.category(named: "Cars")
            try await server.createItems(2, in: a.id, prefix: "A")
            try await server.createItems(3, in: c.id, prefix: "C")
            try await server.createItems(1, in: cars.id, prefix: "Car")
            let response = try await server.call(CategoriesService.merge, MergeCategoriesRequest(sourceIds: [a.id, c.id], targetId: cars.id))
            #expect(response.movedItems == 5)
            #expect(response.deletedIds == [a.id, c.id])
            #expect(response.target.id == cars.id)
            #expect(response.target.itemCount == 6)
            let categories = try await server.categories()
            #expect(categories.map(\.name) == ["Family", "Cars", "Games", "Sports", "B"])
            #expect(categories.last?.id == b.id)
            #expect(response.target == categories[1])
            for id in [a.id, c.id] {
                try await server.expectError(CategoriesService.get, IDRequest(id: id), .notFound, reason: "notFound", id: id)
            }
        }
    }

    @Test("Merge with dryRun answers the counts the call would produce and changes nothing")
    func mergeDryRun() async throws {
        try await withCatalogServer { server in
            let a = try await server.createCategory("A")
            let b = try await server.createCategory("B")
            let games = try await server.category(named: "Games")
            try await server.createItems(2, in: a.id)
            try await server.createItems(1, in: b.id)
            let request = MergeCategoriesRequest(sourceIds: [b.id, a.id], targetId: games.id, dryRun: true)
            let dry = try await server.callChangingNothing(CategoriesService.merge, request)
            #expect(dry.movedItems == 3)
            #expect(dry.deletedIds == [b.id, a.id])
            let done = try await server.call(CategoriesService.merge, MergeCategoriesRequest(sourceIds: [b.id, a.id], targetId: games.id))
            #expect(dry.movedItems == done.movedItems && dry.deletedIds == done.deletedIds)
            #expect(dry.target.itemCount == done.target.itemCount)
        }
    }

    @Test("Merge of a default source is FAILED_PRECONDITION defaultCategory")
    func mergeDefaultSource() async throws {
        try await withCatalogServer { server in
            let a = try await server.createCategory("A")
            let family = try await server.category(named: "Family")
            let cars = try await server.category(named: "Cars")
            try await server.createItems(1, in: a.id)
            try await server.expectError(
                CategoriesService.merge, MergeCategoriesRequest(sourceIds: [a.id, family.id], targetId: cars.id),
                .failedPrecondition, reason: "defaultCategory", id: family.id)
            try await server.expectError(
                CategoriesService.merge, MergeCategoriesRequest(sourceIds: [family.id], targetId: a.id, dryRun: true),
                .failedPrecondition, reason: "defaultCategory", id: family.id)
        }
    }

    @Test("Merge naming missing categories is NOT_FOUND with the first missing id, and changes nothing")
    func mergeMissing() async throws {
        try await withCatalogServer { server in
            let a = try await server.createCategory("A")
            let cars = try await server.category(named: "Cars")
            try await server.createItems(1, in: a.id)
            try await server.expectError(
                CategoriesService.merge, MergeCategoriesRequest(sourceIds: [a.id, 901, 902], targetId: cars.id),
                .notFound, reason: "notFound", id: 901)
            try await server.expectError(
                CategoriesService.merge, MergeCategoriesRequest(sourceIds: [a.id], targetId: 903),
                .notFound, reason: "notFound", id: 903)
        }
    }

    @Test("AssignItems assigns, and without categoryId unassigns; updated counts the items that changed")
    func assignAndUnassign() async throws {
        try await withCatalogServer { server in
            let family = try await server.category(named: "Family")
            let games = try await server.category(named: "Games")
            let loose = try await server.createItems(3, in: nil)
            let held = try await server.createItem("Held", categoryId: family.id)
            let ids = loose.map(\.id) + [held.id]
            let assigned = try await server.call(CategoriesService.assignItems, AssignItemsRequest(itemIds: ids, categoryId: games.id))
            #expect(assigned.updated == 4)
            for id in ids {
                #expect(try await server.call(CatalogService.getItem, IDRequest(id: id)).categoryId == games.id)
            }
            let unassigned = try await server.call(CategoriesService.assignItems, AssignItemsRequest(itemIds: [loose[0].id, held.id]))
            #expect(unassigned.updated == 2)
            #expect(try await server.call(CatalogService.getItem, IDRequest(id: held.id)).categoryId == nil)
            #expect(try await server.call(CategoriesService.get, IDRequest(id: games.id)).itemCount == 2)
        }
    }

    @Test("AssignItems naming a missing item is NOT_FOUND with that id and changes nothing")
    func assignMissingItem() async throws {
        try await withCatalogServer { server in
            let games = try await server.category(named: "Games")
            let items = try await server.createItems(2, in: nil)
            try await server.expectError(
                CategoriesService.assignItems, AssignItemsRequest(itemIds: [items[0].id, 9_001, items[1].id, 9_002], categoryId: games.id),
                .notFound, reason: "notFound", id: 9_001)
            try await server.expectError(
                CategoriesService.assignItems, AssignItemsRequest(itemIds: [items[0].id, 9_001]),
                .notFound, reason: "notFound", id: 9_001)
        }
    }

    @Test("AssignItems to a missing category is NOT_FOUND with its id and changes nothing")
    func assignMissingCategory() async throws {
        try await withCatalogServer { server in
            let items = try await server.createItems(2, in: nil)
            try await server.expectError(
                CategoriesService.assignItems, AssignItemsRequest(itemIds: items.map(\.id), categoryId: 404),
                .notFound, reason: "notFound", id: 404)
        }
    }

    @Test("AssignItems with dryRun answers the count and changes nothing")
    func assignDryRun() async throws {
        try await withCatalogServer { server in
            let sports = try await server.category(named: "Sports")
            let items = try await server.createItems(3, in: nil)
            let request = AssignItemsRequest(itemIds: items.map(\.id), categoryId: sports.id, dryRun: true)
            #expect(try await server.callChangingNothing(CategoriesService.assignItems, request).updated == 3)
        }
    }

    @Test("MoveItems moves every item of one category to another and answers how many")
    func moveItems() async throws {
        try await withCatalogServer { server in
            let family = try await server.category(named: "Family")
            let sports = try await server.category(named: "Sports")
            try await server.createItems(3, in: family.id)
            try await server.createItems(1, in: sports.id)
            let loose = try await server.createItem("Loose")
            let response = try await server.call(CategoriesService.moveItems, MoveItemsRequest(fromId: family.id, toId: sports.id))
            #expect(response.moved == 3)
            #expect(try await server.call(CategoriesService.get, IDRequest(id: sports.id)).itemCount == 4)
            #expect(try await server.call(CategoriesService.get, IDRequest(id: family.id)).itemCount == 0)
            #expect(try await server.call(CatalogService.getItem, IDRequest(id: loose.id)).categoryId == nil)
            #expect(try await server.call(CategoriesService.moveItems, MoveItemsRequest(fromId: family.id, toId: sports.id)).moved == 0)
        }
    }

    @Test("MoveItems naming a missing category is NOT_FOUND with its id")
    func moveItemsMissing() async throws {
        try await withCatalogServer { server in
            let family = try await server.category(named: "Family")
            try await server.createItems(1, in: family.id)
            try await server.expectError(
                CategoriesService.moveItems, MoveItemsRequest(fromId: family.id, toId: 606), .notFound, reason: "notFound", id: 606)
            try await server.expectError(
                CategoriesService.moveItems, MoveItemsRequest(fromId: 607, toId: family.id), .notFound, reason: "notFound", id: 607)
        }
    }

    @Test("Stats counts categories, items and empties, and the shares sum to the categorized share")
    func stats() async throws {
        try await withCatalogServer { server in
            let family = try await server.category(named: "Family")
            let cars = try await server.category(named: "Cars")
            try await server.createItems(3, in: family.id)
            try await server.createItems(1, in: cars.id)
            try await server.createItems(3, in: nil)
            let stats = try await server.call(CategoriesService.stats, Empty())
            #expect(stats.categoryCount == 4)
            #expect(stats.itemCount == 7)
            #expect(stats.uncategorizedItemCount == 3)
            #expect(stats.emptyCategoryCount == 2)
            #expect(stats.categories.map(\.name) == ["Family", "Cars", "Games", "Sports"])
            #expect(stats.categories.map(\.itemCount) == [3, 1, 0, 0])
            let shares = stats.categories.map(\.share).reduce(0, +)
            #expect(abs(shares - 4.0 / 7.0) < 1e-9)
            #expect(stats.categories.allSatisfy { (0...1).contains($0.share) })
        }
    }
}
