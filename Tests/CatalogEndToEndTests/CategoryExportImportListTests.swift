import CatalogAPI
import Foundation
import RPCCore
import Testing

@Suite("Categories: Export, Import and List over the wire")
struct CategoryExportImportListTests {
    @Test("Export answers format catalog.categories.v1 and the categories in position order")
    func export() async throws {
        try await withCatalogServer { server in
            let photos = try await server.createCategory("Photos", color: "#abcdef", icon: "camera")
            try await server.call(CategoriesService.move, MoveCategoryRequest(id: photos.id, toPosition: 1))
            let export = try await server.call(CategoriesService.export, Empty())
            #expect(export.format == "catalog.categories.v1")
            #expect(abs(export.exportedAt.timeIntervalSinceNow) < 60)
            let categories = try await server.categories()
            #expect(export.categories == categories.map {
                CategoryRecord(name: $0.name, color: $0.color, icon: $0.icon, position: $0.position, isDefault: $0.isDefault)
            })
            #expect(export.categories.map(\.name) == ["Family", "Photos", "Cars", "Games", "Sports"])
            #expect(export.categories[1].color == "#ABCDEF")
        }
    }

    @Test("Import merge counts created, updated and unchanged, matching by slug")
    func importMerge() async throws {
        try await withCatalogServer { server in
            var records = try await server.call(CategoriesService.export, Empty()).categories
            records[1].color = "#000000"  // Cars: updated
            records[2].name = "GAMES"  // same slug, other name: updated
            records.append(CategoryRecord(name: "Photos", color: "#ff0000", icon: "camera", position: 4, isDefault: false))
            let request = ImportCategoriesRequest(categories: records, mode: .merge)
            let response = try await server.call(CategoriesService.import, request)
            #expect(response == ImportCategoriesResponse(created: 1, updated: 2, unchanged: 2, deleted: 0))
            let categories = try await server.categories()
            #expect(categories.map(\.name) == ["Family", "Cars", "GAMES", "Sports", "Photos"])
            #expect(categories[1].color == "#000000")
            #expect(categories[4].color == "#FF0000" && categories[4].icon == "camera")
            // The same import again changes nothing.
            let again = try await server.callChangingNothing(CategoriesService.import, request)
            #expect(again == ImportCategoriesResponse(created: 0, updated: 0, unchanged: 5, deleted: 0))
        }
    }

    @Test("Import replace deletes the non-default categories it does not name, and their items become unassigned")
    func importReplace() async throws {
        try await withCatalogServer { server in
            let defaults = try await server.call(CategoriesService.export, Empty()).categories
            let photos = try await server.createCategory("Photos")
            let kept = try await server.createCategory("Kept")
            let items = try await server.createItems(2, in: photos.id)
            let keptItem = try await server.createItem("In kept", categoryId: kept.id)
            let records = defaults + [CategoryRecord(name: "Kept", color: kept.color, position: 4, isDefault: false)]
            let response = try await server.call(CategoriesService.import, ImportCategoriesRequest(categories: records, mode: .replace))
            #expect(response == ImportCategoriesResponse(created: 0, updated: 0, unchanged: 5, deleted: 1))
            #expect(try await server.categories().map(\.name) == ["Family", "Cars", "Games", "Sports", "Kept"])
            for item in items {
                #expect(try await server.call(CatalogService.getItem, IDRequest(id: item.id)).categoryId == nil)
            }
            #expect(try await server.call(CatalogService.getItem, IDRequest(id: keptItem.id)).categoryId == kept.id)
        }
    }

    @Test("Import replace keeps the default categories even when it does not name them")
    func importReplaceKeepsDefaults() async throws {
        try await withCatalogServer { server in
            try await server.createCategory("Photos")
            let records = [CategoryRecord(name: "New", color: "#123456", position: 0, isDefault: false)]
            let response = try await server.call(CategoriesService.import, ImportCategoriesRequest(categories: records, mode: .replace))
            #expect(response == ImportCategoriesResponse(created: 1, updated: 0, unchanged: 0, deleted: 1))
            #expect(try await server.categories().map(\.name) == ["Family", "Cars", "Games", "Sports", "New"])
        }
    }

    @Test("Import with dryRun answers the counts the call would produce and changes nothing", arguments: ImportMode.allCases)
    func importDryRun(mode: ImportMode) async throws {
        try await withCatalogServer { server in
            let photos = try await server.createCategory("Photos")
            try await server.createItems(2, in: photos.id)
            var records = try await server.call(CategoriesService.export, Empty()).categories.filter { $0.isDefault }
            records[0].icon = "sparkles"
            records.append(CategoryRecord(name: "Music", color: "#00AA00", position: 9, isDefault: false))
            let dry = try await server.callChangingNothing(
                CategoriesService.import, ImportCategoriesRequest(categories: records, mode: mode, dryRun: true))
            let done = try await server.call(CategoriesService.import, ImportCategoriesRequest(categories: records, mode: mode))
            #expect(dry == done)
            #expect(done == ImportCategoriesResponse(created: 1, updated: 1, unchanged: 3, deleted: mode == .replace ? 1 : 0))
        }
    }

    @Test("Import rejects an invalid record with INVALID_ARGUMENT naming its field, and changes nothing")
    func importInvalid() async throws {
        try await withCatalogServer { server in
            let good = CategoryRecord(name: "Good", color: "#123456", position: 0, isDefault: false)
            try await server.expectError(
                CategoriesService.import,
                ImportCategoriesRequest(categories: [good, CategoryRecord(name: "Bad", color: "blue", position: 1, isDefault: false)], mode: .replace),
                .invalidArgument, reason: "invalidField", field: "categories[1].color")
            try await server.expectError(
                CategoriesService.import,
                ImportCategoriesRequest(categories: [good, CategoryRecord(name: " ", color: "#123456", position: 1, isDefault: false)], mode: .merge),
                .invalidArgument, reason: "invalidField", field: "categories[1].name")
            try await server.expectError(
                CategoriesService.import,
                ImportCategoriesRequest(categories: [good, CategoryRecord(name: "x", color: "#123456", icon: "X", position: 1, isDefault: false)], mode: .merge),
                .invalidArgument, reason: "invalidField", field: "categories[1].icon")
        }
    }

    @Test("List query is case-insensitive and matches part of the name", arguments: [("fam", ["Family"]), ("GAM", ["Games"]), ("s", ["Cars", "Games", "Sports"]), ("générative", ["IA Générative"]), ("IA GÉN", ["IA Générative"]), ("zzz", [])])
    func listQuery(query: String, expected: [String]) async throws {
        try await withCatalogServer { server in
            try await server.createCategory("IA Générative")
            let listed = try await server.call(CategoriesService.list, ListCategoriesRequest(query: query)).categories
            #expect(listed.map(\.name) == expected)
        }
    }

    @Test("List hideEmpty leaves out the categories without items")
    func listHideEmpty() async throws {
        try await withCatalogServer { server in
            let cars = try await server.category(named: "Cars")
            let sports = try await server.category(named: "Sports")
            try await server.createItems(1, in: sports.id)
            try await server.createItems(2, in: cars.id)
            let listed = try await server.call(CategoriesService.list, ListCategoriesRequest(hideEmpty: true)).categories
            #expect(listed.map(\.name) == ["Cars", "Sports"])
            let shown = try await server.call(CategoriesService.list, ListCategoriesRequest(query: "car", hideEmpty: true)).categories
            #expect(shown.map(\.name) == ["Cars"])
        }
    }

    @Test("List sorts by each key, ascending and descending", arguments: CategorySort.allCases, [false, true])
    func listSort(sort: CategorySort, descending: Bool) async throws {
        try await withCatalogServer { server in
            let zebra = try await server.createCategory("zebra")
            let apple = try await server.createCategory("Apple")
            try await server.createItems(3, in: zebra.id)
            try await server.createItems(1, in: apple.id)
            try await server.createItems(2, in: (try await server.category(named: "Games")).id)
            let all = try await server.categories()
            let listed = try await server.call(
                CategoriesService.list, ListCategoriesRequest(sort: sort, descending: descending)).categories
            #expect(Set(listed.map(\.id)) == Set(all.map(\.id)))
            #expect(listed.count == all.count)
            func inOrder(_ a: Category, _ b: Category) -> Bool {
                switch sort {
                case .position: a.position < b.position
                case .name: a.slug < b.slug
                case .itemCount: a.itemCount < b.itemCount
                case .createdAt: a.createdAt < b.createdAt || (a.createdAt == b.createdAt && a.id < b.id)
                }
            }
            for (a, b) in zip(listed, listed.dropFirst()) {
                #expect(descending ? !inOrder(a, b) : !inOrder(b, a), "\(a.name) before \(b.name)")
            }
            switch (sort, descending) {
            case (.name, false): #expect(listed.map(\.name) == ["Apple", "Cars", "Family", "Games", "Sports", "zebra"])
            case (.name, true): #expect(listed.map(\.name) == ["zebra", "Sports", "Games", "Family", "Cars", "Apple"])
            case (.itemCount, false): #expect(listed.suffix(3).map(\.name) == ["Apple", "Games", "zebra"])
            case (.itemCount, true): #expect(listed.prefix(3).map(\.name) == ["zebra", "Games", "Apple"])
            case (.position, _), (.createdAt, _):
                let names = ["Family", "Cars", "Games", "Sports", "zebra", "Apple"]
                #expect(listed.map(\.name) == (descending ? names.reversed() : names))
            }
        }
    }
}
