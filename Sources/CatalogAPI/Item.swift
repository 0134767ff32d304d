import Foundation

/// A catalog entry (a formation, a product, a photo), as the contract's `Item` message.
public struct Item: Codable, Sendable, Hashable, Identifiable {
    public var id: Int64
    public var title: String
    public var summary: String?
    /// e.g. `"Débutant"`.
    public var level: String?
    /// e.g. `"2 jours"`.
    public var duration: String?
    public var price: Money?
    public var imageURL: String?
    /// Always names an existing category when present.
    public var categoryId: Int64?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int64, title: String, summary: String? = nil, level: String? = nil, duration: String? = nil,
        price: Money? = nil, imageURL: String? = nil, categoryId: Int64? = nil, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.title = title
        self.summary = summary
        self.level = level
        self.duration = duration
        self.price = price
        self.imageURL = imageURL
        self.categoryId = categoryId
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
