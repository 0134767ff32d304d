import CatalogAPI
import CatalogServices
import CatalogStore
import Foundation
import RPCCore
import Testing

@Suite("Categories service")
struct CategoriesRPCServiceTests {
    let store = RecordingStore()
    var service: CategoriesRPCService { CategoriesRPCService(store: store) }

    /// Runs `body`, expects INVALID_ARGUMENT naming `field`, and that the store saw nothing.
    func expectInvalidField<Result>(
        _ field: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws -> Result
    ) async throws {
        let error = try #require(await catalogError(body), sourceLocation: sourceLocation)
        #expect(error.code == .invalidArgument, sourceLocation: sourceLocation)
        #expect(error.reason == "invalidField", sourceLocation: sourceLocation)
        #expect(error.field == field, sourceLocation: sourceLocation)
        #expect(store.calls.isEmpty, "invalid input must not reach the store", sourceLocation: sourceLocation)
    }

    @Test("registers every method of catalog.v1.Categories")
    func registersEveryMethod() {
        var router = Router()
        router.register(service)
        let methods: [MethodDescriptor] = [
            CategoriesService.list.descriptor, CategoriesService.get.descriptor, CategoriesService.create.descriptor,
            CategoriesService.update.descriptor, CategoriesService.delete.descriptor, CategoriesService.move.descriptor,
            CategoriesService.merge.descriptor, CategoriesService.assignItems.descriptor,
            CategoriesService.moveItems.descriptor, CategoriesService.stats.descriptor,
            CategoriesService.palette.descriptor, CategoriesService.export.descriptor,
            CategoriesService.import.descriptor,
        ]
        #expect(Set(router.methods) == Set(methods))
        #expect(router.methods.count == 13)
    }

    // MARK: List, Get

    @Test("List fills in the defaults and drops a blank query")
    func listDefaults() async throws {
        _ = try await service.list(ListCategoriesRequest(query: "  "))
        _ = try await service.list(ListCategoriesRequest(query: " Fam ", hideEmpty: true, sort: .name, descending: true))
        #expect(
            store.calls == [
                .listCategories(CategoryQuery()),
                .listCategories(CategoryQuery(search: "Fam", hideEmpty: true, sort: .name, descending: true)),
            ])
    }

    @Test("Get asks the store for the id")
    func get() async throws {
        #expect(try await service.get(IDRequest(id: 4)) == RecordingStore.category)
        #expect(store.calls == [.category(id: 4)])
    }

    // MARK: Create

    @Test("Create hands the store a normalized draft")
    func create() async throws {
        _ = try await service.create(CreateCategoryRequest(name: "  IA   Générative ", color: "#9c27b0", icon: "sparkles"))
        _ = try await service.create(CreateCategoryRequest(name: "Cars", icon: ""))
        #expect(
            store.calls == [
                .createCategory(
                    CategoryDraft(name: CategoryName(name: "IA   Générative", slug: "ia_générative"), color: "#9C27B0", icon: "sparkles")),
                .createCategory(CategoryDraft(name: CategoryName(name: "Cars", slug: "cars"))),
            ])
    }

    @Test("Create with an invalid name never reaches the store")
    func createInvalidName() async throws {
        try await expectInvalidField("name") {
            try await service.create(CreateCategoryRequest(name: " \n "))
        }
    }

    @Test("Create with an invalid colour never reaches the store")
    func createInvalidColor() async throws {
        try await expectInvalidField("color") {
            try await service.create(CreateCategoryRequest(name: "Cars", color: "9C27B0"))
        }
    }

    @Test("Create with an invalid icon never reaches the store")
    func createInvalidIcon() async throws {
        try await expectInvalidField("icon") {
            try await service.create(CreateCategoryRequest(name: "Cars", icon: "Car"))
        }
    }

    // MARK: Update

    @Test("List refuses a query over 800 bytes or 200 characters, naming it", arguments: [
        String(repeating: "x", count: 201), "1e" + String(repeating: "\u{301}", count: 400),
    ])
    func listQueryTooLong(query: String) async throws {
        try await expectInvalidField("query") { try await service.list(ListCategoriesRequest(query: query)) }
    }

    @Test("Update passes only the fields present, and an empty icon clears it")
    func update() async throws {
        _ = try await service.update(UpdateCategoryRequest(id: 3, name: " Jeux ", color: "#ff5722", expectedRevision: 7))
        _ = try await service.update(UpdateCategoryRequest(id: 3, icon: ""))
        _ = try await service.update(UpdateCategoryRequest(id: 3, icon: "gamecontroller", isDefault: true))
        #expect(
            store.calls == [
                .updateCategory(id: 3, CategoryChanges(name: CategoryName(name: "Jeux", slug: "jeux"), color: "#FF5722"), expectedRevision: 7),
                .updateCategory(id: 3, CategoryChanges(icon: .clear), expectedRevision: nil),
                .updateCategory(id: 3, CategoryChanges(icon: .set("gamecontroller"), isDefault: true), expectedRevision: nil),
            ])
    }

    @Test("Update with an invalid field never reaches the store", arguments: [
        (UpdateCategoryRequest(id: 3, name: String(repeating: "x", count: 51)), "name"),
        (UpdateCategoryRequest(id: 3, name: "Jeux", color: "#12345G"), "color"),
        (UpdateCategoryRequest(id: 3, icon: "game controller"), "icon"),
    ])
    func updateInvalid(request: UpdateCategoryRequest, field: String) async throws {
        try await expectInvalidField(field) { try await service.update(request) }
    }

    // MARK: Delete

    @Test("Delete with items: move and no moveTo is moveToRequired and never reaches the store")
    func deleteMoveWithoutTarget() async throws {
        let error = try #require(await catalogError {
            try await service.delete(DeleteCategoryRequest(id: 3, items: .move))
        })
        #expect(error.code == .invalidArgument)
        #expect(error.reason == "moveToRequired")
        #expect(store.calls.isEmpty)
    }

    @Test("Delete refuses a moveTo that is the deleted category or comes without items: move", arguments: [
        DeleteCategoryRequest(id: 3, items: .move, moveTo: 3),
        DeleteCategoryRequest(id: 3, moveTo: 4),
        DeleteCategoryRequest(id: 3, items: .unassign, moveTo: 4),
    ])
    func deleteStrayMoveTo(request: DeleteCategoryRequest) async throws {
        try await expectInvalidField("moveTo") { try await service.delete(request) }
    }

    @Test("Delete defaults to reject, no dry run")
    func deleteDefaults() async throws {
        _ = try await service.delete(DeleteCategoryRequest(id: 3))
        _ = try await service.delete(DeleteCategoryRequest(id: 3, items: .move, moveTo: 4, expectedRevision: 2, dryRun: true))
        #expect(
            store.calls == [
                .deleteCategory(CategoryDeletion(id: 3)),
                .deleteCategory(CategoryDeletion(id: 3, items: .move, moveTo: 4, expectedRevision: 2, dryRun: true)),
            ])
    }

    // MARK: Move

    @Test("Move takes exactly one of direction and toPosition", arguments: [
        (MoveCategoryRequest(id: 3), "direction"),
        (MoveCategoryRequest(id: 3, direction: .up, toPosition: 0), "toPosition"),
        (MoveCategoryRequest(id: 3, toPosition: -1), "toPosition"),
    ])
    func moveInvalid(request: MoveCategoryRequest, field: String) async throws {
        try await expectInvalidField(field) { try await service.move(request) }
    }

    @Test("Move hands the store a step or a position")
    func move() async throws {
        _ = try await service.move(MoveCategoryRequest(id: 3, direction: .up))
        _ = try await service.move(MoveCategoryRequest(id: 3, toPosition: 0))
        #expect(store.calls == [.moveCategory(id: 3, .step(.up)), .moveCategory(id: 3, .position(0))])
    }

    // MARK: Merge, AssignItems, MoveItems

    @Test("Merge needs sources other than the target", arguments: [
        MergeCategoriesRequest(sourceIds: [], targetId: 1),
        MergeCategoriesRequest(sourceIds: [2, 1], targetId: 1),
    ])
    func mergeInvalid(request: MergeCategoriesRequest) async throws {
        try await expectInvalidField("sourceIds") { try await service.merge(request) }
    }

    @Test("Merge counts a repeated source once")
    func mergeDeduplicates() async throws {
        _ = try await service.merge(MergeCategoriesRequest(sourceIds: [3, 2, 3], targetId: 1, dryRun: true))
        #expect(store.calls == [.mergeCategories(sourceIDs: [3, 2], targetID: 1, dryRun: true)])
    }

    @Test("AssignItems counts a repeated item once, and no categoryId unassigns")
    func assignItems() async throws {
        let response = try await service.assignItems(AssignItemsRequest(itemIds: [5, 6, 5]))
        #expect(response == AssignItemsResponse(updated: 2))
        #expect(store.calls == [.assignItems([5, 6], categoryID: nil, dryRun: false)])
    }

    @Test("MoveItems needs two different categories")
    func moveItems() async throws {
        try await expectInvalidField("toId") {
            try await service.moveItems(MoveItemsRequest(fromId: 2, toId: 2))
        }
        _ = try await service.moveItems(MoveItemsRequest(fromId: 2, toId: 3))
        #expect(store.calls == [.moveItems(from: 2, to: 3)])
    }

    // MARK: Stats, Palette, Export

    @Test("Stats comes from the store")
    func stats() async throws {
        _ = try await service.stats()
        #expect(store.calls == [.stats])
    }

    @Test("Palette answers the contract's twelve colours without asking the store")
    func palette() {
        #expect(
            service.palette().colors == [
                "#E91E63", "#F44336", "#9C27B0", "#4CAF50", "#2196F3", "#FF9800",
                "#795548", "#607D8B", "#009688", "#FFEB3B", "#3F51B5", "#FF5722",
            ])
        #expect(store.calls.isEmpty)
    }

    @Test("Export wraps the store's records with the format and the time")
    func export() async throws {
        let records = [CategoryRecord(name: "Family", color: "#E91E63", position: 0, isDefault: true)]
        let service = CategoriesRPCService(store: RecordingStore(exported: records))
        let before = Date()
        let export = try await service.export()
        #expect(export.format == "catalog.categories.v1")
        #expect(export.categories == records)
        #expect(export.exportedAt >= before && export.exportedAt <= Date())
    }

    // MARK: Import

    @Test("Import hands the store normalized records")
    func importCategories() async throws {
        let request = ImportCategoriesRequest(
            categories: [
                CategoryRecord(name: " Family ", color: "#e91e63", icon: "house", position: 0, isDefault: true),
                CategoryRecord(name: "IA Générative", color: "#9C27B0", icon: "", position: 1, isDefault: false),
            ],
            mode: .replace, dryRun: true)
        _ = try await service.importCategories(request)
        #expect(
            store.calls == [
                .importCategories(
                    [
                        CategoryImport(name: CategoryName(name: "Family", slug: "family"), color: "#E91E63", icon: "house", position: 0, isDefault: true),
                        CategoryImport(name: CategoryName(name: "IA Générative", slug: "ia_générative"), color: "#9C27B0", position: 1, isDefault: false),
                    ],
                    .replace, dryRun: true)
            ])
    }

    @Test("Import names the first invalid record's field and changes nothing", arguments: [
        (CategoryRecord(name: "Sports", color: "#FFF", position: 2, isDefault: false), "categories[2].color"),
        (CategoryRecord(name: "\u{7}", color: "#FFFFFF", position: 2, isDefault: false), "categories[2].name"),
        (CategoryRecord(name: "Sports", color: "#FFFFFF", icon: "Ball", position: 2, isDefault: false), "categories[2].icon"),
        (CategoryRecord(name: "Sports", color: "#FFFFFF", position: -1, isDefault: false), "categories[2].position"),
        (CategoryRecord(name: " family", color: "#FFFFFF", position: 2, isDefault: false), "categories[2].name"),
        (
            CategoryRecord(name: "1e" + String(repeating: "\u{301}", count: 950_000), color: "#FFFFFF", position: 2, isDefault: false),
            "categories[2].name"
        ),
    ])
    func importInvalid(record: CategoryRecord, field: String) async throws {
        let request = ImportCategoriesRequest(
            categories: [
                CategoryRecord(name: "Family", color: "#E91E63", position: 0, isDefault: true),
                CategoryRecord(name: "Cars", color: "#F44336", position: 1, isDefault: true),
                record,
            ],
            mode: .merge)
        try await expectInvalidField(field) { try await service.importCategories(request) }
    }

    @Test("Import refuses two records with the same slug, even spelled differently")
    func importDuplicateSlug() async throws {
        let request = ImportCategoriesRequest(
            categories: [
                CategoryRecord(name: "IA Générative", color: "#9C27B0", position: 0, isDefault: false),
                CategoryRecord(name: "ia   ge\u{301}ne\u{301}rative", color: "#9C27B0", position: 1, isDefault: false),
            ],
            mode: .merge)
        try await expectInvalidField("categories[1].name") {
            try await service.importCategories(request)
        }
    }
}
