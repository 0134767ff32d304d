import CatalogAPI
import Foundation
import RPCCore
import Testing

@Suite("Categories: Delete over the wire")
struct CategoryDeleteTests {
    @Test("Delete of an empty non-default category removes it and keeps the positions dense")
    func deleteEmpty() async throws {
        try await withCatalogServer { server in
            let first = try await server.createCategory("First")
            let second = try await server.createCategory("Second")
            let response = try await server.call(CategoriesService.delete, DeleteCategoryRequest(id: first.id))
            #expect(response == DeleteCategoryResponse(deletedItems: 0, movedItems: 0, unassignedItems: 0))
            let categories = try await server.categories()
            #expect(categories.map(\.name) == ["Family", "Cars", "Games", "Sports", "Second"])
            #expect(categories.last?.id == second.id && categories.last?.position == 4)
            try await server.expectError(CategoriesService.get, IDRequest(id: first.id), .notFound, reason: "notFound", id: first.id)
        }
    }

    @Test("Delete of a category holding items, with items absent or reject, is FAILED_PRECONDITION categoryNotEmpty with the count")
    func rejectNonEmpty() async throws {
        try await withCatalogServer { server in
            let photos = try await server.createCategory("Photos")
            try await server.createItems(3, in: photos.id)
            for policy in [nil, DeleteItemsPolicy.reject] {
                let error = try await server.expectError(
                    CategoriesService.delete, DeleteCategoryRequest(id: photos.id, items: policy),
                    .failedPrecondition, reason: "categoryNotEmpty")
                #expect(error?.detail?.details?["itemCount"]?.intValue == 3)
            }
        }
    }

    @Test("Delete with items delete removes the items and answers their count")
    func deleteItems() async throws {
        try await withCatalogServer { server in
            let photos = try await server.createCategory("Photos")
            let family = try await server.category(named: "Family")
            try await server.createItems(3, in: photos.id)
            let kept = try await server.createItem("Kept", categoryId: family.id)
            let response = try await server.call(CategoriesService.delete, DeleteCategoryRequest(id: photos.id, items: .delete))
            #expect(response == DeleteCategoryResponse(deletedItems: 3, movedItems: 0, unassignedItems: 0))
            #expect(try await server.allItems().map(\.id) == [kept.id])
        }
    }

    @Test("Delete with items move moves them to moveTo and answers their count")
    func moveItems() async throws {
        try await withCatalogServer { server in
            let photos = try await server.createCategory("Photos")
            let cars = try await server.category(named: "Cars")
            let items = try await server.createItems(2, in: photos.id)
            let response = try await server.call(
                CategoriesService.delete, DeleteCategoryRequest(id: photos.id, items: .move, moveTo: cars.id))
            #expect(response == DeleteCategoryResponse(deletedItems: 0, movedItems: 2, unassignedItems: 0))
            for item in items {
                #expect(try await server.call(CatalogService.getItem, IDRequest(id: item.id)).categoryId == cars.id)
            }
            #expect(try await server.call(CategoriesService.get, IDRequest(id: cars.id)).itemCount == 2)
        }
    }

    @Test("Delete with items unassign leaves the items without a category and answers their count")
    func unassignItems() async throws {
        try await withCatalogServer { server in
            let photos = try await server.createCategory("Photos")
            let items = try await server.createItems(2, in: photos.id)
            let response = try await server.call(CategoriesService.delete, DeleteCategoryRequest(id: photos.id, items: .unassign))
            #expect(response == DeleteCategoryResponse(deletedItems: 0, movedItems: 0, unassignedItems: 2))
            for item in items {
                #expect(try await server.call(CatalogService.getItem, IDRequest(id: item.id)).categoryId == nil)
            }
            #expect(try await server.call(CategoriesService.stats, Empty()).uncategorizedItemCount == 2)
        }
    }

    @Test("Delete with items move but no moveTo is INVALID_ARGUMENT moveToRequired")
    func moveToRequired() async throws {
        try await withCatalogServer { server in
            let photos = try await server.createCategory("Photos")
            try await server.createItems(1, in: photos.id)
            try await server.expectError(
                CategoriesService.delete, DeleteCategoryRequest(id: photos.id, items: .move),
                .invalidArgument, reason: "moveToRequired")
        }
    }

    @Test("Delete with items move to a missing category is NOT_FOUND with that id")
    func moveToMissing() async throws {
        try await withCatalogServer { server in
            let photos = try await server.createCategory("Photos")
            try await server.createItems(1, in: photos.id)
            try await server.expectError(
                CategoriesService.delete, DeleteCategoryRequest(id: photos.id, items: .move, moveTo: 777),
                .notFound, reason: "notFound", id: 777)
        }
    }

    @Test("Delete of a default category is FAILED_PRECONDITION defaultCategory, whatever the items policy")
    func defaultCategory() async throws {
        try await withCatalogServer { server in
            let family = try await server.category(named: "Family")
            for policy in [nil, DeleteItemsPolicy.delete, .unassign] {
                try await server.expectError(
                    CategoriesService.delete, DeleteCategoryRequest(id: family.id, items: policy),
                    .failedPrecondition, reason: "defaultCategory", id: family.id)
            }
        }
    }

    @Test("the last remaining category cannot be deleted: FAILED_PRECONDITION lastCategory")
    func lastCategory() async throws {
        try await withCatalogServer { server in
            for category in try await server.categories() {
                try await server.call(CategoriesService.update, UpdateCategoryRequest(id: category.id, isDefault: false))
            }
            var remaining = try await server.categories()
            while remaining.count > 1 {
                try await server.call(CategoriesService.delete, DeleteCategoryRequest(id: remaining[0].id))
                remaining = try await server.categories()
            }
            #expect(remaining.map(\.name) == ["Sports"])
            #expect(remaining[0].position == 0)
            for policy in [nil, DeleteItemsPolicy.delete, .unassign] {
                try await server.expectError(
                    CategoriesService.delete, DeleteCategoryRequest(id: remaining[0].id, items: policy, dryRun: true),
                    .failedPrecondition, reason: "lastCategory")
                try await server.expectError(
                    CategoriesService.delete, DeleteCategoryRequest(id: remaining[0].id, items: policy),
                    .failedPrecondition, reason: "lastCategory")
            }
        }
    }

    @Test("Delete with dryRun answers the counts the call would produce and changes nothing", arguments: DeleteItemsPolicy.allCases)
    func dryRun(policy: DeleteItemsPolicy) async throws {
        try await withCatalogServer { server in
            let photos = try await server.createCategory("Photos")
            let cars = try await server.category(named: "Cars")
            try await server.createItems(policy == .reject ? 0 : 2, in: photos.id)
            let request = DeleteCategoryRequest(id: photos.id, items: policy, moveTo: policy == .move ? cars.id : nil, dryRun: true)
            let dry = try await server.callChangingNothing(CategoriesService.delete, request)
            var real = request
            real.dryRun = nil
            let done = try await server.call(CategoriesService.delete, real)
            #expect(dry == done)
        }
    }

    @Test("Delete with dryRun still refuses what the real call would refuse")
    func dryRunRefuses() async throws {
        try await withCatalogServer { server in
            let photos = try await server.createCategory("Photos")
            try await server.createItems(2, in: photos.id)
            let error = try await server.expectError(
                CategoriesService.delete, DeleteCategoryRequest(id: photos.id, dryRun: true),
                .failedPrecondition, reason: "categoryNotEmpty")
            #expect(error?.detail?.details?["itemCount"]?.intValue == 2)
            let family = try await server.category(named: "Family")
            try await server.expectError(
                CategoriesService.delete, DeleteCategoryRequest(id: family.id, dryRun: true),
                .failedPrecondition, reason: "defaultCategory", id: family.id)
        }
    }

    @Test("Delete with a stale expectedRevision is ABORTED revisionMismatch; with the current one it deletes")
    func expectedRevision() async throws {
        try await withCatalogServer { server in
            let photos = try await server.createCategory("Photos")
            try await server.expectError(
                CategoriesService.delete, DeleteCategoryRequest(id: photos.id, expectedRevision: photos.revision + 1),
                .aborted, reason: "revisionMismatch")
            try await server.call(CategoriesService.delete, DeleteCategoryRequest(id: photos.id, expectedRevision: photos.revision))
            #expect(try await server.categories().count == 4)
        }
    }

    @Test("Delete of a missing category is NOT_FOUND with its id")
    func missing() async throws {
        try await withCatalogServer { server in
            try await server.expectError(CategoriesService.delete, DeleteCategoryRequest(id: 500), .notFound, reason: "notFound", id: 500)
        }
    }
}
