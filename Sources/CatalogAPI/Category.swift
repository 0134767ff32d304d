import Foundation

/// A category of catalog items, as the contract's `Category` message.
public struct Category: Codable, Sendable, Hashable, Identifiable {
    public var id: Int64
    /// Trimmed display name, 1 to 50 grapheme clusters.
    public var name: String
    /// The normalized name (NFC, lower-cased, white space runs as `_`); unique.
    public var slug: String
    /// `#RRGGBB`, upper-case.
    public var color: String
    /// A symbol name of `[a-z0-9.]`, at most 64 characters.
    public var icon: String?
    /// 0-based and dense across all categories.
    public var position: Int
    public var isDefault: Bool
    /// Items in this category (maintained by the store, not recounted per request).
    public var itemCount: Int
    /// Bumps when name, colour, icon, position or isDefault change.
    public var revision: Int64
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int64, name: String, slug: String, color: String, icon: String? = nil, position: Int,
        isDefault: Bool, itemCount: Int, revision: Int64, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.name = name
        self.slug = slug
        self.color = color
        self.icon = icon
        self.position = position
        self.isDefault = isDefault
        self.itemCount = itemCount
        self.revision = revision
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
