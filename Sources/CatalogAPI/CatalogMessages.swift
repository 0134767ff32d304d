/// Messages of `catalog.v1.Catalog`.

/// How `ListItems` orders its results.
public enum ItemSort: String, Codable, Sendable, CaseIterable {
    case title, price, createdAt
}

public struct ListItemsRequest: Codable, Sendable, Hashable {
    public var categoryId: Int64?
    /// Matches title and summary, case- and diacritic-insensitive.
    public var query: String?
    public var level: String?
    public var sort: ItemSort?
    public var descending: Bool?
    /// 1...500; default 50.
    public var pageSize: Int?
    public var pageToken: String?

    public init(
        categoryId: Int64? = nil, query: String? = nil, level: String? = nil, sort: ItemSort? = nil,
        descending: Bool? = nil, pageSize: Int? = nil, pageToken: String? = nil
    ) {
        self.categoryId = categoryId
        self.query = query
        self.level = level
        self.sort = sort
        self.descending = descending
        self.pageSize = pageSize
        self.pageToken = pageToken
    }
}

public struct ListItemsResponse: Codable, Sendable, Hashable {
    public var items: [Item]
    public var nextPageToken: String?
    public var totalCount: Int

    public init(items: [Item], nextPageToken: String? = nil, totalCount: Int) {
        self.items = items
        self.nextPageToken = nextPageToken
        self.totalCount = totalCount
    }
}

/// A request naming one entity by id.
public struct IDRequest: Codable, Sendable, Hashable {
    public var id: Int64

    public init(id: Int64) { self.id = id }
}

public struct CreateItemRequest: Codable, Sendable, Hashable {
    public var title: String
    public var summary: String?
    public var level: String?
    public var duration: String?
    public var price: Money?
    public var imageURL: String?
    public var categoryId: Int64?

    public init(
        title: String, summary: String? = nil, level: String? = nil, duration: String? = nil,
        price: Money? = nil, imageURL: String? = nil, categoryId: Int64? = nil
    ) {
        self.title = title
        self.summary = summary
        self.level = level
        self.duration = duration
        self.price = price
        self.imageURL = imageURL
        self.categoryId = categoryId
    }
}

/// Changes the fields that are present. For the optional fields (`summary`, `level`,
/// `duration`, `price`, `imageURL`, `categoryId`) `null` clears the value and an absent key
/// leaves it as it is.
public struct UpdateItemRequest: Codable, Sendable, Hashable {
    public var id: Int64
    public var title: String?
    public var summary: FieldUpdate<String>
    public var level: FieldUpdate<String>
    public var duration: FieldUpdate<String>
    public var price: FieldUpdate<Money>
    public var imageURL: FieldUpdate<String>
    public var categoryId: FieldUpdate<Int64>

    public init(
        id: Int64, title: String? = nil, summary: FieldUpdate<String> = .unchanged, level: FieldUpdate<String> = .unchanged,
        duration: FieldUpdate<String> = .unchanged, price: FieldUpdate<Money> = .unchanged,
        imageURL: FieldUpdate<String> = .unchanged, categoryId: FieldUpdate<Int64> = .unchanged
    ) {
        self.id = id
        self.title = title
        self.summary = summary
        self.level = level
        self.duration = duration
        self.price = price
        self.imageURL = imageURL
        self.categoryId = categoryId
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, summary, level, duration, price, imageURL, categoryId
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        summary = try FieldUpdate(from: container, forKey: .summary)
        level = try FieldUpdate(from: container, forKey: .level)
        duration = try FieldUpdate(from: container, forKey: .duration)
        price = try FieldUpdate(from: container, forKey: .price)
        imageURL = try FieldUpdate(from: container, forKey: .imageURL)
        categoryId = try FieldUpdate(from: container, forKey: .categoryId)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(title, forKey: .title)
        try summary.encode(to: &container, forKey: .summary)
        try level.encode(to: &container, forKey: .level)
        try duration.encode(to: &container, forKey: .duration)
        try price.encode(to: &container, forKey: .price)
        try imageURL.encode(to: &container, forKey: .imageURL)
        try categoryId.encode(to: &container, forKey: .categoryId)
    }
}
