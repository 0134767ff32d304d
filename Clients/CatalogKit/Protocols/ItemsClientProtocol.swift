import CatalogAPI
import RPCCore

/// The calls of `catalog.v1.Catalog`, the items, as ``ItemsClient`` makes them: what app code
/// takes so that a test can hand it a fake. Every argument of a requirement is explicit; the
/// extension gives each the defaults ``ItemsClient`` documents.
public protocol ItemsClientProtocol: Sendable {
    /// See ``ItemsClient/list(categoryId:query:level:sort:descending:pageSize:pageToken:options:)``.
    func list(
        categoryId: Int64?, query: String?, level: String?, sort: ItemSort?, descending: Bool?,
        pageSize: Int?, pageToken: String?, options: CallOptions
    ) async throws -> ListItemsResponse
    /// See ``ItemsClient/get(id:options:)``.
    func get(id: Int64, options: CallOptions) async throws -> Item
    /// See ``ItemsClient/create(title:summary:level:duration:price:imageURL:categoryId:options:)``.
    func create(
        title: String, summary: String?, level: String?, duration: String?, price: Money?,
        imageURL: String?, categoryId: Int64?, options: CallOptions
    ) async throws -> Item
    /// See ``ItemsClient/update(id:title:summary:level:duration:price:imageURL:categoryId:options:)``.
    func update(
        id: Int64, title: String?, summary: FieldUpdate<String>, level: FieldUpdate<String>,
        duration: FieldUpdate<String>, price: FieldUpdate<Money>, imageURL: FieldUpdate<String>,
        categoryId: FieldUpdate<Int64>, options: CallOptions
    ) async throws -> Item
    /// See ``ItemsClient/delete(id:options:)``.
    func delete(id: Int64, options: CallOptions) async throws
    /// See ``ItemsClient/import(_:options:)``.
    func `import`<Requests: AsyncSequence>(
        _ requests: Requests, options: CallOptions
    ) async throws -> ImportItemsResponse where Requests.Element == CreateItemRequest
}

extension ItemsClientProtocol {
    /// The requirement with ``ItemsClient``'s defaults.
    public func list(
        categoryId: Int64? = nil, query: String? = nil, level: String? = nil, sort: ItemSort? = nil,
        descending: Bool? = nil, pageSize: Int? = nil, pageToken: String? = nil, options: CallOptions = .defaults
    ) async throws -> ListItemsResponse {
        try await list(
            categoryId: categoryId, query: query, level: level, sort: sort, descending: descending,
            pageSize: pageSize, pageToken: pageToken, options: options)
    }

    /// The requirement with ``ItemsClient``'s defaults.
    public func get(id: Int64, options: CallOptions = .defaults) async throws -> Item {
        try await get(id: id, options: options)
    }

    /// The requirement with ``ItemsClient``'s defaults.
    public func create(
        title: String, summary: String? = nil, level: String? = nil, duration: String? = nil, price: Money? = nil,
        imageURL: String? = nil, categoryId: Int64? = nil, options: CallOptions = .defaults
    ) async throws -> Item {
        try await create(
            title: title, summary: summary, level: level, duration: duration, price: price,
            imageURL: imageURL, categoryId: categoryId, options: options)
    }

    /// The requirement with ``ItemsClient``'s defaults.
    public func update(
        id: Int64, title: String? = nil, summary: FieldUpdate<String> = .unchanged, level: FieldUpdate<String> = .unchanged,
        duration: FieldUpdate<String> = .unchanged, price: FieldUpdate<Money> = .unchanged,
        imageURL: FieldUpdate<String> = .unchanged, categoryId: FieldUpdate<Int64> = .unchanged,
        options: CallOptions = .defaults
    ) async throws -> Item {
        try await update(
            id: id, title: title, summary: summary, level: level, duration: duration, price: price,
            imageURL: imageURL, categoryId: categoryId, options: options)
    }

    /// The requirement with ``ItemsClient``'s defaults.
    public func delete(id: Int64, options: CallOptions = .defaults) async throws {
        try await delete(id: id, options: options)
    }

    /// The requirement with ``ItemsClient``'s defaults.
    public func `import`<Requests: AsyncSequence>(
        _ requests: Requests, options: CallOptions = .defaults
    ) async throws -> ImportItemsResponse where Requests.Element == CreateItemRequest {
        try await self.import(requests, options: options)
    }
}
