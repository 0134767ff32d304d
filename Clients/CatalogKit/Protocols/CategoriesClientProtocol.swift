import CatalogAPI
import RPCCore

/// The calls of `catalog.v1.Categories` as ``CategoriesClient`` makes them: what app code
/// takes so that a test can hand it a fake. Every argument of a requirement is explicit; the
/// extension gives each the defaults ``CategoriesClient`` documents.
public protocol CategoriesClientProtocol: Sendable {
    /// See ``CategoriesClient/list(query:hideEmpty:sort:descending:options:)``.
    func list(query: String?, hideEmpty: Bool?, sort: CategorySort?, descending: Bool?, options: CallOptions) async throws -> [Category]
    /// See ``CategoriesClient/get(id:options:)``.
    func get(id: Int64, options: CallOptions) async throws -> Category
    /// See ``CategoriesClient/create(name:color:icon:options:)``.
    func create(name: String, color: String?, icon: String?, options: CallOptions) async throws -> Category
    /// See ``CategoriesClient/update(id:name:color:icon:isDefault:expectedRevision:options:)``.
    func update(
        id: Int64, name: String?, color: String?, icon: String?, isDefault: Bool?, expectedRevision: Int64?, options: CallOptions
    ) async throws -> Category
    /// See ``CategoriesClient/delete(id:items:moveTo:expectedRevision:dryRun:options:)``.
    func delete(
        id: Int64, items: DeleteItemsPolicy?, moveTo: Int64?, expectedRevision: Int64?, dryRun: Bool, options: CallOptions
    ) async throws -> DeleteCategoryResponse
    /// See ``CategoriesClient/move(id:direction:expectedRevision:options:)``.
    func move(id: Int64, direction: MoveDirection, expectedRevision: Int64?, options: CallOptions) async throws -> [Category]
    /// See ``CategoriesClient/move(id:toPosition:expectedRevision:options:)``.
    func move(id: Int64, toPosition: Int, expectedRevision: Int64?, options: CallOptions) async throws -> [Category]
    /// See ``CategoriesClient/merge(sourceIds:into:dryRun:options:)``.
    func merge(sourceIds: [Int64], into targetId: Int64, dryRun: Bool, options: CallOptions) async throws -> MergeCategoriesResponse
    /// See ``CategoriesClient/assignItems(_:to:dryRun:options:)``.
    func assignItems(_ itemIds: [Int64], to categoryId: Int64?, dryRun: Bool, options: CallOptions) async throws -> AssignItemsResponse
    /// See ``CategoriesClient/moveItems(from:to:options:)``.
    func moveItems(from fromId: Int64, to toId: Int64, options: CallOptions) async throws -> MoveItemsResponse
    /// See ``CategoriesClient/stats(options:)``.
    func stats(options: CallOptions) async throws -> CategoryStats
    /// See ``CategoriesClient/palette(options:)``.
    func palette(options: CallOptions) async throws -> [String]
    /// See ``CategoriesClient/export(options:)``.
    func export(options: CallOptions) async throws -> CategoryExport
    /// See ``CategoriesClient/import(_:mode:dryRun:options:)``.
    func `import`(_ categories: [CategoryRecord], mode: ImportMode, dryRun: Bool, options: CallOptions) async throws -> ImportCategoriesResponse
}

extension CategoriesClientProtocol {
    /// The requirement with ``CategoriesClient``'s defaults.
    public func list(
        query: String? = nil, hideEmpty: Bool? = nil, sort: CategorySort? = nil, descending: Bool? = nil, options: CallOptions = .defaults
    ) async throws -> [Category] {
        try await list(query: query, hideEmpty: hideEmpty, sort: sort, descending: descending, options: options)
    }

    /// The requirement with ``CategoriesClient``'s defaults.
    public func get(id: Int64, options: CallOptions = .defaults) async throws -> Category {
        try await get(id: id, options: options)
    }

    /// The requirement with ``CategoriesClient``'s defaults.
    public func create(name: String, color: String? = nil, icon: String? = nil, options: CallOptions = .defaults) async throws -> Category {
        try await create(name: name, color: color, icon: icon, options: options)
    }

    /// The requirement with ``CategoriesClient``'s defaults.
    public func update(
        id: Int64, name: String? = nil, color: String? = nil, icon: String? = nil, isDefault: Bool? = nil,
        expectedRevision: Int64? = nil, options: CallOptions = .defaults
    ) async throws -> Category {
        try await update(id: id, name: name, color: color, icon: icon, isDefault: isDefault, expectedRevision: expectedRevision, options: options)
    }

    /// The requirement with ``CategoriesClient``'s defaults.
    public func delete(
        id: Int64, items: DeleteItemsPolicy? = nil, moveTo: Int64? = nil, expectedRevision: Int64? = nil, dryRun: Bool = false,
        options: CallOptions = .defaults
    ) async throws -> DeleteCategoryResponse {
        try await delete(id: id, items: items, moveTo: moveTo, expectedRevision: expectedRevision, dryRun: dryRun, options: options)
    }

    /// The requirement with ``CategoriesClient``'s defaults.
    public func move(
        id: Int64, direction: MoveDirection, expectedRevision: Int64? = nil, options: CallOptions = .defaults
    ) async throws -> [Category] {
        try await move(id: id, direction: direction, expectedRevision: expectedRevision, options: options)
    }

    /// The requirement with ``CategoriesClient``'s defaults.
    public func move(id: Int64, toPosition: Int, expectedRevision: Int64? = nil, options: CallOptions = .defaults) async throws -> [Category] {
        try await move(id: id, toPosition: toPosition, expectedRevision: expectedRevision, options: options)
    }

    /// The requirement with ``CategoriesClient``'s defaults.
    public func merge(
        sourceIds: [Int64], into targetId: Int64, dryRun: Bool = false, options: CallOptions = .defaults
    ) async throws -> MergeCategoriesResponse {
        try await merge(sourceIds: sourceIds, into: targetId, dryRun: dryRun, options: options)
    }

    /// The requirement with ``CategoriesClient``'s defaults.
    public func assignItems(
        _ itemIds: [Int64], to categoryId: Int64?, dryRun: Bool = false, options: CallOptions = .defaults
    ) async throws -> AssignItemsResponse {
        try await assignItems(itemIds, to: categoryId, dryRun: dryRun, options: options)
    }

    /// The requirement with ``CategoriesClient``'s defaults.
    public func moveItems(from fromId: Int64, to toId: Int64, options: CallOptions = .defaults) async throws -> MoveItemsResponse {
        try await moveItems(from: fromId, to: toId, options: options)
    }

    /// The requirement with ``CategoriesClient``'s defaults.
    public func stats(options: CallOptions = .defaults) async throws -> CategoryStats {
        try await stats(options: options)
    }

    /// The requirement with ``CategoriesClient``'s defaults.
    public func palette(options: CallOptions = .defaults) async throws -> [String] {
        try await palette(options: options)
    }

    /// The requirement with ``CategoriesClient``'s defaults.
    public func export(options: CallOptions = .defaults) async throws -> CategoryExport {
        try await export(options: options)
    }

    /// The requirement with ``CategoriesClient``'s defaults.
    public func `import`(
        _ categories: [CategoryRecord], mode: ImportMode, dryRun: Bool = false, options: CallOptions = .defaults
    ) async throws -> ImportCategoriesResponse {
        try await `import`(categories, mode: mode, dryRun: dryRun, options: options)
    }
}
