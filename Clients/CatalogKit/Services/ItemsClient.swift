import CatalogAPI
import RPCCore

/// Calls `catalog.v1.Catalog`, the items; get one from ``CatalogClient/items``.
///
/// ```swift
/// let page = try await catalog.items.list(query: "swift", sort: .price, pageSize: 20)
/// let item = try await catalog.items.create(title: "Prompt Engineering", categoryId: 3)
/// _ = try await catalog.items.update(id: item.id, summary: .clear)
/// ```
///
/// Reads are retried on UNAVAILABLE (see ``RetryPolicy``); writes never are.
/// ``import(_:options:)`` loads many items in one call.
public struct ItemsClient: Sendable {
    private let runner: CallRunner

    init(runner: CallRunner) { self.runner = runner }

    /// One page of items, with the total count and the token of the next page.
    ///
    /// - Parameters:
    ///   - categoryId: Only the items of this category.
    ///   - query: Matches title and summary, case- and diacritic-insensitive.
    ///   - level: Only the items of this level, e.g. `"Débutant"`.
    ///   - sort: The order; the server's default when `nil`.
    ///   - descending: Reverses the order.
    ///   - pageSize: 1 to 500; 50 when `nil`.
    ///   - pageToken: The `nextPageToken` of the previous page.
    ///   - options: Per-call settings such as a timeout or a token.
    /// - Throws: `RPCError`, INVALID_ARGUMENT for a page size out of range.
    public func list(
        categoryId: Int64? = nil,
        query: String? = nil,
        level: String? = nil,
        sort: ItemSort? = nil,
        descending: Bool? = nil,
        pageSize: Int? = nil,
        pageToken: String? = nil,
        options: CallOptions = .defaults
    ) async throws -> ListItemsResponse {
        let request = ListItemsRequest(
            categoryId: categoryId, query: query, level: level, sort: sort, descending: descending,
            pageSize: pageSize, pageToken: pageToken
        )
        return try await runner.unary(CatalogService.listItems, request, options: options, .read)
    }

    /// The item `id`.
    ///
    /// - Throws: `RPCError` NOT_FOUND (with `details["id"]`) when there is no such item.
    public func get(id: Int64, options: CallOptions = .defaults) async throws -> Item {
        try await runner.unary(CatalogService.getItem, IDRequest(id: id), options: options, .read)
    }

    /// Creates an item and returns it with its id and timestamps.
    ///
    /// - Parameters:
    ///   - title: The title; required.
    ///   - summary: A short description.
    ///   - level: The level, e.g. `"Débutant"`.
    ///   - duration: How long the item takes, as free text, e.g. `"2 jours"`.
    ///   - price: The price, an amount and a currency.
    ///   - imageURL: The URL of its image.
    ///   - categoryId: An existing category; NOT_FOUND (with `details["id"]`) otherwise.
    ///   - options: Per-call settings such as a timeout or a token.
    /// - Throws: `RPCError`, INVALID_ARGUMENT with `field` for an invalid field.
    public func create(
        title: String,
        summary: String? = nil,
        level: String? = nil,
        duration: String? = nil,
        price: Money? = nil,
        imageURL: String? = nil,
        categoryId: Int64? = nil,
        options: CallOptions = .defaults
    ) async throws -> Item {
        let request = CreateItemRequest(
            title: title, summary: summary, level: level, duration: duration, price: price,
            imageURL: imageURL, categoryId: categoryId
        )
        return try await runner.unary(CatalogService.createItem, request, options: options, .write)
    }

    /// Changes the given fields of item `id` and returns the item.
    ///
    /// Optional fields take a `FieldUpdate`: `.unchanged` (the default) keeps the value,
    /// `.clear` removes it, `.set(value)` replaces it.
    ///
    /// - Throws: `RPCError` NOT_FOUND for a missing item or category.
    public func update(
        id: Int64,
        title: String? = nil,
        summary: FieldUpdate<String> = .unchanged,
        level: FieldUpdate<String> = .unchanged,
        duration: FieldUpdate<String> = .unchanged,
        price: FieldUpdate<Money> = .unchanged,
        imageURL: FieldUpdate<String> = .unchanged,
        categoryId: FieldUpdate<Int64> = .unchanged,
        options: CallOptions = .defaults
    ) async throws -> Item {
        let request = UpdateItemRequest(
            id: id, title: title, summary: summary, level: level, duration: duration, price: price,
            imageURL: imageURL, categoryId: categoryId
        )
        return try await runner.unary(CatalogService.updateItem, request, options: options, .write)
    }

    /// Deletes item `id`.
    ///
    /// - Throws: `RPCError` NOT_FOUND when there is no such item.
    public func delete(id: Int64, options: CallOptions = .defaults) async throws {
        _ = try await runner.unary(CatalogService.deleteItem, IDRequest(id: id), options: options, .write)
    }

    /// Creates the items of `requests` in one transaction, with consecutive ids in their order,
    /// or none of them: one call of `ImportItems`, streamed as `requests` yields.
    ///
    /// The server checks each request as CreateItem does while it arrives, and reads no faster
    /// than it stores, so a large import holds little memory on either side. The client's
    /// default timeout does not bound it (an upload takes as long as its data); give one in
    /// `options`. It is never retried.
    ///
    /// ```swift
    /// let requests = AsyncStream { stream in
    ///     for title in titles { stream.yield(CreateItemRequest(title: title)) }
    ///     stream.finish()
    /// }
    /// let result = try await catalog.items.import(requests)
    /// print("created \(result.created) items at revision \(result.revision)")
    /// ```
    ///
    /// - Parameters:
    ///   - requests: The items to create, at most 100 000.
    ///   - options: Per-call settings such as a timeout or a token.
    /// - Returns: How many items were created, their first and last ids, and the catalog
    ///   revision they were created at.
    /// - Throws: `RPCError`: the first refused request's error (INVALID_ARGUMENT with `field`,
    ///   NOT_FOUND for a missing category) with its 0-based `details["index"]`, and nothing is
    ///   created; RESOURCE_EXHAUSTED `tooManyItems` past 100 000. An error `requests` throws
    ///   cancels the call, creates nothing, and is rethrown as it is.
    public func `import`<Requests: AsyncSequence>(
        _ requests: Requests, options: CallOptions = .defaults
    ) async throws -> ImportItemsResponse where Requests.Element == CreateItemRequest {
        try await runner.clientStreaming(CatalogService.importItems, options: options) { writer in
            for try await request in requests { try await writer.write(request) }
        }
    }
}
