import CatalogAPI
import Foundation

/// How to list categories.
public struct CategoryQuery: Sendable, Hashable {
    /// Case-insensitive substring of the name (matched on the slug's folding).
    public var search: String?
    public var hideEmpty: Bool
    public var sort: CategorySort
    public var descending: Bool

    public init(search: String? = nil, hideEmpty: Bool = false, sort: CategorySort = .position, descending: Bool = false) {
        self.search = search
        self.hideEmpty = hideEmpty
        self.sort = sort
        self.descending = descending
    }
}

/// A validated, normalized category name.
public struct CategoryName: Sendable, Hashable {
    /// Trimmed display name.
    public let name: String
    /// NFC, lower-cased, white space runs as `_`.
    public let slug: String

    public init(name: String, slug: String) {
        self.name = name
        self.slug = slug
    }
}

/// A new category, validated by the service.
public struct CategoryDraft: Sendable, Hashable {
    public var name: CategoryName
    /// `#RRGGBB` upper-case, or `nil` for the palette colour.
    public var color: String?
    public var icon: String?

    public init(name: CategoryName, color: String? = nil, icon: String? = nil) {
        self.name = name
        self.color = color
        self.icon = icon
    }
}

/// Changes to a category; `nil` leaves a field as it is.
public struct CategoryChanges: Sendable, Hashable {
    public var name: CategoryName?
    public var color: String?
    public var icon: FieldUpdate<String>
    public var isDefault: Bool?

    public init(name: CategoryName? = nil, color: String? = nil, icon: FieldUpdate<String> = .unchanged, isDefault: Bool? = nil) {
        self.name = name
        self.color = color
        self.icon = icon
        self.isDefault = isDefault
    }
}

/// A category deletion with its item policy (`moveTo` required by the service for `.move`).
public struct CategoryDeletion: Sendable, Hashable {
    public var id: Int64
    public var items: DeleteItemsPolicy
    public var moveTo: Int64?
    public var expectedRevision: Int64?
    public var dryRun: Bool

    public init(id: Int64, items: DeleteItemsPolicy = .reject, moveTo: Int64? = nil, expectedRevision: Int64? = nil, dryRun: Bool = false) {
        self.id = id
        self.items = items
        self.moveTo = moveTo
        self.expectedRevision = expectedRevision
        self.dryRun = dryRun
    }
}

/// Where a category moves: one step, or to a position (checked against 0..n-1 by the store).
public enum MoveTarget: Sendable, Hashable {
    case step(MoveDirection)
    case position(Int)
}

/// One validated category of an import document.
public struct CategoryImport: Sendable, Hashable {
    public var name: CategoryName
    public var color: String
    public var icon: String?
    public var position: Int
    public var isDefault: Bool

    public init(name: CategoryName, color: String, icon: String? = nil, position: Int, isDefault: Bool) {
        self.name = name
        self.color = color
        self.icon = icon
        self.position = position
        self.isDefault = isDefault
    }
}

/// How to list items: filters, order and a page.
public struct ItemQuery: Sendable, Hashable {
    public var categoryID: Int64?
    /// Case- and diacritic-insensitive substring of title or summary.
    public var search: String?
    public var level: String?
    public var sort: ItemSort
    public var descending: Bool
    /// 1...500, checked by the service.
    public var pageSize: Int
    /// Opaque token from a previous page; INVALID_ARGUMENT (field `pageToken`) when malformed.
    public var pageToken: String?

    public init(
        categoryID: Int64? = nil, search: String? = nil, level: String? = nil, sort: ItemSort = .createdAt,
        descending: Bool = false, pageSize: Int = 50, pageToken: String? = nil
    ) {
        self.categoryID = categoryID
        self.search = search
        self.level = level
        self.sort = sort
        self.descending = descending
        self.pageSize = pageSize
        self.pageToken = pageToken
    }
}

/// A new item, validated by the service.
public struct ItemDraft: Sendable, Hashable {
    public var title: String
    public var summary: String?
    public var level: String?
    public var duration: String?
    public var price: Money?
    public var imageURL: String?
    public var categoryID: Int64?

    public init(
        title: String, summary: String? = nil, level: String? = nil, duration: String? = nil, price: Money? = nil,
        imageURL: String? = nil, categoryID: Int64? = nil
    ) {
        self.title = title
        self.summary = summary
        self.level = level
        self.duration = duration
        self.price = price
        self.imageURL = imageURL
        self.categoryID = categoryID
    }
}

/// Changes to an item: `title` when not `nil`; each optional field unchanged, cleared or set.
public struct ItemChanges: Sendable, Hashable {
    public var title: String?
    public var summary: FieldUpdate<String>
    public var level: FieldUpdate<String>
    public var duration: FieldUpdate<String>
    public var price: FieldUpdate<Money>
    public var imageURL: FieldUpdate<String>
    public var categoryID: FieldUpdate<Int64>

    public init(
        title: String? = nil, summary: FieldUpdate<String> = .unchanged, level: FieldUpdate<String> = .unchanged,
        duration: FieldUpdate<String> = .unchanged, price: FieldUpdate<Money> = .unchanged,
        imageURL: FieldUpdate<String> = .unchanged, categoryID: FieldUpdate<Int64> = .unchanged
    ) {
        self.title = title
        self.summary = summary
        self.level = level
        self.duration = duration
        self.price = price
        self.imageURL = imageURL
        self.categoryID = categoryID
    }
}
