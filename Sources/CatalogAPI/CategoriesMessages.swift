import Foundation

/// Messages of `catalog.v1.Categories`.

public enum CategorySort: String, Codable, Sendable, CaseIterable {
    case position, name, itemCount, createdAt
}

public struct ListCategoriesRequest: Codable, Sendable, Hashable {
    /// Case-insensitive search in names.
    public var query: String?
    public var hideEmpty: Bool?
    public var sort: CategorySort?
    public var descending: Bool?

    public init(query: String? = nil, hideEmpty: Bool? = nil, sort: CategorySort? = nil, descending: Bool? = nil) {
        self.query = query
        self.hideEmpty = hideEmpty
        self.sort = sort
        self.descending = descending
    }
}

public struct CategoryList: Codable, Sendable, Hashable {
    public var categories: [Category]

    public init(categories: [Category]) { self.categories = categories }
}

public struct CreateCategoryRequest: Codable, Sendable, Hashable {
    public var name: String
    /// `#RRGGBB`; absent: the palette colour at the new position modulo 12.
    public var color: String?
    public var icon: String?

    public init(name: String, color: String? = nil, icon: String? = nil) {
        self.name = name
        self.color = color
        self.icon = icon
    }
}

public struct UpdateCategoryRequest: Codable, Sendable, Hashable {
    public var id: Int64
    public var name: String?
    public var color: String?
    public var icon: String?
    public var isDefault: Bool?
    /// ABORTED `revisionMismatch` when the category's revision differs.
    public var expectedRevision: Int64?

    public init(
        id: Int64, name: String? = nil, color: String? = nil, icon: String? = nil, isDefault: Bool? = nil,
        expectedRevision: Int64? = nil
    ) {
        self.id = id
        self.name = name
        self.color = color
        self.icon = icon
        self.isDefault = isDefault
        self.expectedRevision = expectedRevision
    }
}

/// What happens to the items of a deleted category.
public enum DeleteItemsPolicy: String, Codable, Sendable, CaseIterable {
    /// Refuse when the category holds items (FAILED_PRECONDITION `categoryNotEmpty`); the default.
    case reject
    case delete
    /// Move them to `moveTo`.
    case move
    case unassign
}

public struct DeleteCategoryRequest: Codable, Sendable, Hashable {
    public var id: Int64
    public var items: DeleteItemsPolicy?
    public var moveTo: Int64?
    public var expectedRevision: Int64?
    public var dryRun: Bool?

    public init(
        id: Int64, items: DeleteItemsPolicy? = nil, moveTo: Int64? = nil, expectedRevision: Int64? = nil,
        dryRun: Bool? = nil
    ) {
        self.id = id
        self.items = items
        self.moveTo = moveTo
        self.expectedRevision = expectedRevision
        self.dryRun = dryRun
    }
}

public struct DeleteCategoryResponse: Codable, Sendable, Hashable {
    public var deletedItems: Int
    public var movedItems: Int
    public var unassignedItems: Int

    public init(deletedItems: Int, movedItems: Int, unassignedItems: Int) {
        self.deletedItems = deletedItems
        self.movedItems = movedItems
        self.unassignedItems = unassignedItems
    }
}

public enum MoveDirection: String, Codable, Sendable, CaseIterable {
    case up, down
}

/// Exactly one of `direction` and `toPosition`.
public struct MoveCategoryRequest: Codable, Sendable, Hashable {
    public var id: Int64
    public var direction: MoveDirection?
    public var toPosition: Int?
    /// ABORTED `revisionMismatch` when the category's revision differs.
    public var expectedRevision: Int64?

    public init(id: Int64, direction: MoveDirection? = nil, toPosition: Int? = nil, expectedRevision: Int64? = nil) {
        self.id = id
        self.direction = direction
        self.toPosition = toPosition
        self.expectedRevision = expectedRevision
    }
}

public struct MergeCategoriesRequest: Codable, Sendable, Hashable {
    public var sourceIds: [Int64]
    public var targetId: Int64
    public var dryRun: Bool?

    public init(sourceIds: [Int64], targetId: Int64, dryRun: Bool? = nil) {
        self.sourceIds = sourceIds
        self.targetId = targetId
        self.dryRun = dryRun
    }
}

public struct MergeCategoriesResponse: Codable, Sendable, Hashable {
    public var target: Category
    public var movedItems: Int
    public var deletedIds: [Int64]

    public init(target: Category, movedItems: Int, deletedIds: [Int64]) {
        self.target = target
        self.movedItems = movedItems
        self.deletedIds = deletedIds
    }
}

/// Without `categoryId` the items are unassigned.
public struct AssignItemsRequest: Codable, Sendable, Hashable {
    public var itemIds: [Int64]
    public var categoryId: Int64?
    public var dryRun: Bool?

    public init(itemIds: [Int64], categoryId: Int64? = nil, dryRun: Bool? = nil) {
        self.itemIds = itemIds
        self.categoryId = categoryId
        self.dryRun = dryRun
    }
}

public struct AssignItemsResponse: Codable, Sendable, Hashable {
    public var updated: Int

    public init(updated: Int) { self.updated = updated }
}

public struct MoveItemsRequest: Codable, Sendable, Hashable {
    public var fromId: Int64
    public var toId: Int64

    public init(fromId: Int64, toId: Int64) {
        self.fromId = fromId
        self.toId = toId
    }
}

public struct MoveItemsResponse: Codable, Sendable, Hashable {
    public var moved: Int

    public init(moved: Int) { self.moved = moved }
}

public struct CategoryStats: Codable, Sendable, Hashable {
    public struct Entry: Codable, Sendable, Hashable {
        public var id: Int64
        public var name: String
        public var itemCount: Int
        /// Fraction 0...1 of all items.
        public var share: Double

        public init(id: Int64, name: String, itemCount: Int, share: Double) {
            self.id = id
            self.name = name
            self.itemCount = itemCount
            self.share = share
        }
    }

    public var categoryCount: Int
    public var itemCount: Int
    public var uncategorizedItemCount: Int
    public var emptyCategoryCount: Int
    public var categories: [Entry]

    public init(categoryCount: Int, itemCount: Int, uncategorizedItemCount: Int, emptyCategoryCount: Int, categories: [Entry]) {
        self.categoryCount = categoryCount
        self.itemCount = itemCount
        self.uncategorizedItemCount = uncategorizedItemCount
        self.emptyCategoryCount = emptyCategoryCount
        self.categories = categories
    }
}

public struct Palette: Codable, Sendable, Hashable {
    public var colors: [String]

    public init(colors: [String]) { self.colors = colors }
}

/// One category in an export or import document.
public struct CategoryRecord: Codable, Sendable, Hashable {
    public var name: String
    public var color: String
    public var icon: String?
    public var position: Int
    public var isDefault: Bool

    public init(name: String, color: String, icon: String? = nil, position: Int, isDefault: Bool) {
        self.name = name
        self.color = color
        self.icon = icon
        self.position = position
        self.isDefault = isDefault
    }
}

public struct CategoryExport: Codable, Sendable, Hashable {
    /// Always `catalog.categories.v1`.
    public var format: String
    public var exportedAt: Date
    public var categories: [CategoryRecord]

    public static let formatName = "catalog.categories.v1"

    public init(exportedAt: Date, categories: [CategoryRecord]) {
        self.format = Self.formatName
        self.exportedAt = exportedAt
        self.categories = categories
    }
}

public enum ImportMode: String, Codable, Sendable, CaseIterable {
    /// Create new slugs, update changed ones, keep the rest.
    case merge
    /// As merge, and delete the non-default categories the import does not name.
    case replace
}

public struct ImportCategoriesRequest: Codable, Sendable, Hashable {
    public var categories: [CategoryRecord]
    public var mode: ImportMode
    public var dryRun: Bool?

    public init(categories: [CategoryRecord], mode: ImportMode, dryRun: Bool? = nil) {
        self.categories = categories
        self.mode = mode
        self.dryRun = dryRun
    }
}

public struct ImportCategoriesResponse: Codable, Sendable, Hashable {
    public var created: Int
    public var updated: Int
    public var unchanged: Int
    public var deleted: Int

    public init(created: Int, updated: Int, unchanged: Int, deleted: Int) {
        self.created = created
        self.updated = updated
        self.unchanged = unchanged
        self.deleted = deleted
    }
}
