import CatalogAPI
import CatalogStore
import Foundation
import RPCCore

/// Serves `catalog.v1.Categories`: checks and normalizes each request with `CategoryRules`,
/// answers the rules that need no stored data, and leaves the rest to the store.
///
/// Each method is also callable directly, as the handler registered for it.
///
/// Decisions where the contract leaves room:
/// - Update: `icon: ""` clears the icon, an absent icon leaves it.
/// - Delete: `moveTo` with `items` other than `move` is INVALID_ARGUMENT (field `moveTo`),
///   as is `moveTo` equal to `id`.
/// - Move: neither `direction` nor `toPosition` names `direction`; both name `toPosition`;
///   a negative `toPosition` is invalid here, one past the end is the store's to refuse.
/// - Merge: `sourceIds` must not be empty nor hold `targetId`; repeated ids count once.
/// - AssignItems: repeated item ids count once; an empty list goes to the store (which
///   still checks the category).
/// - MoveItems: `fromId` equal to `toId` is INVALID_ARGUMENT (field `toId`).
/// - Import: two records with the same slug are INVALID_ARGUMENT on the second one's name;
///   a negative position is invalid; an empty icon is no icon.
/// - List: a query that is empty after trimming is no query; one over `TextRules.queryLimit`
///   is INVALID_ARGUMENT naming `query`.
public struct CategoriesRPCService: RPCService {
    private let store: any CatalogStore
    /// List's answers, encoded once per version of each list asked for: a list holds every
    /// category, and encoding it again on each call would hold the connection's event loop.
    private let encodedLists = EncodedMessageCache<ListCategoriesRequest, CategoryList>(capacity: 64)

    public init(store: any CatalogStore) {
        self.store = store
    }

    public func register(into router: inout Router) {
        router.register(CategoriesService.list, .unary(encoded: { [self] request, context in
            try encodedLists.encoded(try await list(request), for: request, codec: context.contentType.codec)
        }))
        if let store = store as? any SynchronousPointReads {
            router.register(CategoriesService.get, .unary(.inline) { request, _ in try store.categoryNow(id: request.id) })
        } else {
            router.register(CategoriesService.get, .unary(.inline) { [self] request, _ in try await get(request) })
        }
        router.register(CategoriesService.create, .unary { [self] request, _ in try await create(request) })
        router.register(CategoriesService.update, .unary { [self] request, _ in try await update(request) })
        router.register(CategoriesService.delete, .unary { [self] request, _ in try await delete(request) })
        router.register(CategoriesService.move, .unary { [self] request, _ in try await move(request) })
        router.register(CategoriesService.merge, .unary { [self] request, _ in try await merge(request) })
        router.register(CategoriesService.assignItems, .unary { [self] request, _ in try await assignItems(request) })
        router.register(CategoriesService.moveItems, .unary { [self] request, _ in try await moveItems(request) })
        router.register(CategoriesService.stats, .unary { [self] _, _ in try await stats() })
        router.register(CategoriesService.palette, .unary(.inline) { [self] _, _ in palette() })
        router.register(CategoriesService.export, .unary { [self] _, _ in try await export() })
        router.register(CategoriesService.import, .unary { [self] request, _ in try await importCategories(request) })
    }

    // MARK: Handlers

    public func list(_ request: ListCategoriesRequest) async throws(CatalogError) -> CategoryList {
        let query = CategoryQuery(
            search: try TextRules.query(request.query),
            hideEmpty: request.hideEmpty ?? false,
            sort: request.sort ?? .position,
            descending: request.descending ?? false)
        return CategoryList(categories: try await store.listCategories(query))
    }

    /// A point read, registered inline: with no task when the store has `SynchronousPointReads`.
    public func get(_ request: IDRequest) async throws(CatalogError) -> Category {
        try await store.category(id: request.id)
    }

    public func create(_ request: CreateCategoryRequest) async throws(CatalogError) -> Category {
        let draft = CategoryDraft(
            name: try CategoryRules.name(request.name),
            color: try request.color.map { color throws(CatalogError) in try CategoryRules.color(color) },
            icon: try request.icon.flatMap { icon throws(CatalogError) in try CategoryRules.icon(icon) })
        return try await store.createCategory(draft)
    }

    public func update(_ request: UpdateCategoryRequest) async throws(CatalogError) -> Category {
        var changes = CategoryChanges(isDefault: request.isDefault)
        if let name = request.name { changes.name = try CategoryRules.name(name) }
        if let color = request.color { changes.color = try CategoryRules.color(color) }
        if let icon = request.icon {
            changes.icon = try CategoryRules.icon(icon).map { .set($0) } ?? .clear
        }
        return try await store.updateCategory(id: request.id, changes, expectedRevision: request.expectedRevision)
    }

    public func delete(_ request: DeleteCategoryRequest) async throws(CatalogError) -> DeleteCategoryResponse {
        let policy = request.items ?? .reject
        if policy == .move {
            guard let moveTo = request.moveTo else { throw .moveToRequired }
            if moveTo == request.id { throw .invalidField("moveTo", "must name another category than id") }
        } else if request.moveTo != nil {
            throw .invalidField("moveTo", "is only allowed with items: move")
        }
        let deletion = CategoryDeletion(
            id: request.id, items: policy, moveTo: request.moveTo, expectedRevision: request.expectedRevision,
            dryRun: request.dryRun ?? false)
        return try await store.deleteCategory(deletion)
    }

    public func move(_ request: MoveCategoryRequest) async throws(CatalogError) -> CategoryList {
        let target: MoveTarget
        switch (request.direction, request.toPosition) {
        case (let direction?, nil):
            target = .step(direction)
        case (nil, let position?):
            target = .position(try CategoryRules.position(position, field: "toPosition"))
        case (nil, nil):
            throw .invalidField("direction", "give one of direction and toPosition")
        case (_?, _?):
            throw .invalidField("toPosition", "give only one of direction and toPosition")
        }
        return CategoryList(categories: try await store.moveCategory(id: request.id, to: target, expectedRevision: request.expectedRevision))
    }

    public func merge(_ request: MergeCategoriesRequest) async throws(CatalogError) -> MergeCategoriesResponse {
        let sourceIDs = Self.uniqued(request.sourceIds)
        if sourceIDs.isEmpty { throw .invalidField("sourceIds", "must name at least one category") }
        if sourceIDs.contains(request.targetId) { throw .invalidField("sourceIds", "must not contain targetId") }
        return try await store.mergeCategories(sourceIDs: sourceIDs, into: request.targetId, dryRun: request.dryRun ?? false)
    }

    public func assignItems(_ request: AssignItemsRequest) async throws(CatalogError) -> AssignItemsResponse {
        let updated = try await store.assignItems(
            Self.uniqued(request.itemIds), to: request.categoryId, dryRun: request.dryRun ?? false)
        return AssignItemsResponse(updated: updated)
    }

    public func moveItems(_ request: MoveItemsRequest) async throws(CatalogError) -> MoveItemsResponse {
        if request.fromId == request.toId { throw .invalidField("toId", "must name another category than fromId") }
        return MoveItemsResponse(moved: try await store.moveItems(from: request.fromId, to: request.toId))
    }

    public func stats() async throws(CatalogError) -> CategoryStats {
        try await store.stats()
    }

    public func palette() -> Palette {
        Palette(colors: CategoryPalette.palette)
    }

    public func export() async throws(CatalogError) -> CategoryExport {
        CategoryExport(exportedAt: Date(), categories: try await store.exportCategories())
    }

    public func importCategories(_ request: ImportCategoriesRequest) async throws(CatalogError) -> ImportCategoriesResponse {
        var records: [CategoryImport] = []
        var indexBySlug: [String: Int] = [:]
        for (index, record) in request.categories.enumerated() {
            let field = "categories[\(index)]"
            let name = try CategoryRules.name(record.name, field: "\(field).name")
            if let first = indexBySlug[name.slug] {
                throw .invalidField("\(field).name", "names the same category as categories[\(first)]")
            }
            indexBySlug[name.slug] = index
            records.append(
                CategoryImport(
                    name: name,
                    color: try CategoryRules.color(record.color, field: "\(field).color"),
                    icon: try record.icon.flatMap { icon throws(CatalogError) in try CategoryRules.icon(icon, field: "\(field).icon") },
                    position: try CategoryRules.position(record.position, field: "\(field).position"),
                    isDefault: record.isDefault))
        }
        return try await store.importCategories(records, mode: request.mode, dryRun: request.dryRun ?? false)
    }

    /// `ids` without repeats, in their first order.
    private static func uniqued(_ ids: [Int64]) -> [Int64] {
        var seen = Set<Int64>()
        return ids.filter { seen.insert($0).inserted }
    }
}
