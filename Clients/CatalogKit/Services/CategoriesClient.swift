import CatalogAPI
import RPCCore

/// Calls `catalog.v1.Categories`; get one from ``CatalogClient/categories``.
///
/// ```swift
/// let books = try await catalog.categories.create(name: "Books", icon: "book")
/// _ = try await catalog.categories.move(id: books.id, direction: .up)
/// let report = try await catalog.categories.delete(id: books.id, items: .unassign, dryRun: true)
/// ```
///
/// Reads (`list`, `get`, `stats`, `palette`, `export`) are retried on UNAVAILABLE (see
/// ``RetryPolicy``); writes never are. Rule violations throw `RPCError` with the contract's
/// `reason`, e.g. `duplicateName`, `revisionMismatch`, `defaultCategory`, `categoryNotEmpty`.
public struct CategoriesClient: Sendable {
    private let runner: CallRunner

    init(runner: CallRunner) { self.runner = runner }

    /// The categories, in position order unless `sort` says otherwise.
    ///
    /// - Parameters:
    ///   - query: Only the categories whose name contains this, case-insensitive.
    ///   - hideEmpty: Leaves out the categories without items.
    ///   - sort: `position`, `name`, `itemCount` or `createdAt`.
    ///   - descending: Reverses the order.
    ///   - options: Per-call settings such as a timeout or a token.
    public func list(
        query: String? = nil,
        hideEmpty: Bool? = nil,
        sort: CategorySort? = nil,
        descending: Bool? = nil,
        options: CallOptions = .defaults
    ) async throws -> [Category] {
        let request = ListCategoriesRequest(query: query, hideEmpty: hideEmpty, sort: sort, descending: descending)
        return try await runner.unary(CategoriesService.list, request, options: options, .read).categories
    }

    /// The category `id`.
    ///
    /// - Throws: `RPCError` NOT_FOUND (with `details["id"]`) when there is no such category.
    public func get(id: Int64, options: CallOptions = .defaults) async throws -> Category {
        try await runner.unary(CategoriesService.get, IDRequest(id: id), options: options, .read)
    }

    /// Creates a category at the end of the order.
    ///
    /// - Parameters:
    ///   - name: 1 to 50 characters; its slug must be free.
    ///   - color: `#RRGGBB`; the palette colour of the new position when `nil`.
    ///   - icon: A symbol name of `[a-z0-9.]`, at most 64 characters.
    ///   - options: Per-call settings such as a timeout or a token.
    /// - Throws: `RPCError` ALREADY_EXISTS, reason `duplicateName` with the existing
    ///   category's `details["id"]`; INVALID_ARGUMENT naming the `field`.
    public func create(
        name: String,
        color: String? = nil,
        icon: String? = nil,
        options: CallOptions = .defaults
    ) async throws -> Category {
        try await runner.unary(CategoriesService.create, CreateCategoryRequest(name: name, color: color, icon: icon), options: options, .write)
    }

    /// Changes the given fields of category `id`.
    ///
    /// - Parameters:
    ///   - id: The category.
    ///   - name: A new name, 1 to 50 characters; its slug must be free.
    ///   - color: A new colour, `#RRGGBB`.
    ///   - icon: A new symbol name.
    ///   - isDefault: Whether it is a default category, which cannot be deleted or merged away.
    ///   - expectedRevision: When set, the update happens only if the category is still at
    ///     this revision; otherwise ABORTED, reason `revisionMismatch`.
    ///   - options: Per-call settings such as a timeout or a token.
    public func update(
        id: Int64,
        name: String? = nil,
        color: String? = nil,
        icon: String? = nil,
        isDefault: Bool? = nil,
        expectedRevision: Int64? = nil,
        options: CallOptions = .defaults
    ) async throws -> Category {
        let request = UpdateCategoryRequest(
            id: id, name: name, color: color, icon: icon, isDefault: isDefault, expectedRevision: expectedRevision
        )
        return try await runner.unary(CategoriesService.update, request, options: options, .write)
    }

    /// Deletes category `id` and says what happened to its items.
    ///
    /// - Parameters:
    ///   - id: The category.
    ///   - items: What to do with its items: `reject` (the default: FAILED_PRECONDITION
    ///     `categoryNotEmpty` if it has any), `delete`, `move` (to `moveTo`) or `unassign`.
    ///   - moveTo: The category that receives the items with `.move`.
    ///   - expectedRevision: Deletes only if the category is still at this revision.
    ///   - dryRun: Reports the counts without changing anything.
    ///   - options: Per-call settings such as a timeout or a token.
    public func delete(
        id: Int64,
        items: DeleteItemsPolicy? = nil,
        moveTo: Int64? = nil,
        expectedRevision: Int64? = nil,
        dryRun: Bool = false,
        options: CallOptions = .defaults
    ) async throws -> DeleteCategoryResponse {
        let request = DeleteCategoryRequest(
            id: id, items: items, moveTo: moveTo, expectedRevision: expectedRevision, dryRun: dryRun ? true : nil
        )
        return try await runner.unary(CategoriesService.delete, request, options: options, .write)
    }

    /// Moves category `id` one place up or down and returns the new order.
    ///
    /// - Throws: `RPCError` FAILED_PRECONDITION `alreadyFirst` / `alreadyLast` at either end.
    public func move(
        id: Int64,
        direction: MoveDirection,
        expectedRevision: Int64? = nil,
        options: CallOptions = .defaults
    ) async throws -> [Category] {
        let request = MoveCategoryRequest(id: id, direction: direction, expectedRevision: expectedRevision)
        return try await runner.unary(CategoriesService.move, request, options: options, .write).categories
    }

    /// Moves category `id` to `toPosition` (0-based) and returns the new order.
    public func move(
        id: Int64,
        toPosition: Int,
        expectedRevision: Int64? = nil,
        options: CallOptions = .defaults
    ) async throws -> [Category] {
        let request = MoveCategoryRequest(id: id, toPosition: toPosition, expectedRevision: expectedRevision)
        return try await runner.unary(CategoriesService.move, request, options: options, .write).categories
    }

    /// Moves the items of `sourceIds` into `targetId` and deletes the sources.
    ///
    /// - Parameters:
    ///   - sourceIds: The categories merged away.
    ///   - targetId: The category that receives their items.
    ///   - dryRun: Reports what would happen without changing anything.
    ///   - options: Per-call settings such as a timeout or a token.
    /// - Throws: `RPCError` FAILED_PRECONDITION `defaultCategory` for a default source;
    ///   NOT_FOUND with the first missing id.
    public func merge(
        sourceIds: [Int64],
        into targetId: Int64,
        dryRun: Bool = false,
        options: CallOptions = .defaults
    ) async throws -> MergeCategoriesResponse {
        let request = MergeCategoriesRequest(sourceIds: sourceIds, targetId: targetId, dryRun: dryRun ? true : nil)
        return try await runner.unary(CategoriesService.merge, request, options: options, .write)
    }

    /// Puts the items `itemIds` into `categoryId`, or takes them out of any category when `nil`.
    ///
    /// - Throws: `RPCError` NOT_FOUND with the first missing item or category id; nothing changes then.
    public func assignItems(
        _ itemIds: [Int64],
        to categoryId: Int64?,
        dryRun: Bool = false,
        options: CallOptions = .defaults
    ) async throws -> AssignItemsResponse {
        let request = AssignItemsRequest(itemIds: itemIds, categoryId: categoryId, dryRun: dryRun ? true : nil)
        return try await runner.unary(CategoriesService.assignItems, request, options: options, .write)
    }

    /// Moves every item of category `fromId` into `toId`.
    public func moveItems(from fromId: Int64, to toId: Int64, options: CallOptions = .defaults) async throws -> MoveItemsResponse {
        try await runner.unary(CategoriesService.moveItems, MoveItemsRequest(fromId: fromId, toId: toId), options: options, .write)
    }

    /// Counts of categories and items, and each category's share of the items.
    public func stats(options: CallOptions = .defaults) async throws -> CategoryStats {
        try await runner.unary(CategoriesService.stats, Empty(), options: options, .read)
    }

    /// The twelve colours given in turn to categories created without one.
    public func palette(options: CallOptions = .defaults) async throws -> [String] {
        try await runner.unary(CategoriesService.palette, Empty(), options: options, .read).colors
    }

    /// Every category as a portable document (`catalog.categories.v1`), for ``import(_:mode:dryRun:options:)``.
    public func export(options: CallOptions = .defaults) async throws -> CategoryExport {
        try await runner.unary(CategoriesService.export, Empty(), options: options, .read)
    }

    /// Imports categories matched by slug: new ones are created, changed ones updated;
    /// `.replace` also deletes the non-default categories the import does not name.
    ///
    /// - Parameters:
    ///   - categories: The categories, e.g. the `categories` of an ``export(options:)``.
    ///   - mode: `.merge` or `.replace`.
    ///   - dryRun: Reports the counts without changing anything.
    ///   - options: Per-call settings such as a timeout or a token.
    public func `import`(
        _ categories: [CategoryRecord],
        mode: ImportMode,
        dryRun: Bool = false,
        options: CallOptions = .defaults
    ) async throws -> ImportCategoriesResponse {
        let request = ImportCategoriesRequest(categories: categories, mode: mode, dryRun: dryRun ? true : nil)
        return try await runner.unary(CategoriesService.import, request, options: options, .write)
    }
}
