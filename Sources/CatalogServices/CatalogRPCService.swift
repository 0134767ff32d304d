import CatalogAPI
import CatalogStore
import Foundation
import RPCCore

/// Serves `catalog.v1.Catalog`: checks and normalizes each request with `ItemRules`, then
/// leaves existence and storage to the store.
///
/// Each method is also callable directly, as the handler registered for it.
///
/// Decisions where the contract leaves room (see also `ItemRules`):
/// - ListItems: a `query` or `level` that is empty after trimming is absent, as is `pageToken: ""`;
///   the default order is `createdAt`, ascending. A `query` over `TextRules.queryLimit`, or a
///   `level` that no item could hold, is INVALID_ARGUMENT naming it.
/// - UpdateItem: `categoryId: null` unassigns, an absent `categoryId` leaves it.
public struct CatalogRPCService: RPCService {
    private let store: any CatalogStore
    /// GetItem's answers, encoded once per version of each item.
    private let encodedItems = EncodedMessageCache<Int64, Item>(capacity: 4096)

    public init(store: any CatalogStore) {
        self.store = store
    }

    public func register(into router: inout Router) {
        router.register(CatalogService.listItems, .unary { [self] request, _ in try await listItems(request) })
        if let store = store as? any SynchronousPointReads {
            router.register(CatalogService.getItem, .unary(.inline, encoded: { [encodedItems] request, context in
                try encodedItems.encoded(try store.itemNow(id: request.id), for: request.id, codec: context.contentType.codec)
            }))
        } else {
            router.register(CatalogService.getItem, .unary(.inline, encoded: { [self] request, context in
                try encodedItems.encoded(try await getItem(request), for: request.id, codec: context.contentType.codec)
            }))
        }
        router.register(CatalogService.createItem, .unary { [self] request, _ in try await createItem(request) })
        router.register(CatalogService.updateItem, .unary { [self] request, _ in try await updateItem(request) })
        router.register(CatalogService.deleteItem, .unary { [self] request, _ in try await deleteItem(request) })
        router.register(CatalogService.importItems, .clientStreaming { [self] requests, _ in try await importItems(requests) })
    }

    // MARK: Handlers

    public func listItems(_ request: ListItemsRequest) async throws(CatalogError) -> ListItemsResponse {
        let query = ItemQuery(
            categoryID: request.categoryId,
            search: try TextRules.query(request.query),
            level: try request.level.flatMap { level throws(CatalogError) in
                Self.nonEmpty(try ItemRules.shortText(level, field: "level"))
            },
            sort: request.sort ?? .createdAt,
            descending: request.descending ?? false,
            pageSize: try ItemRules.pageSize(request.pageSize),
            pageToken: request.pageToken?.isEmpty == false ? request.pageToken : nil)
        return try await store.listItems(query)
    }

    /// A point read, registered inline: with no task when the store has `SynchronousPointReads`.
    public func getItem(_ request: IDRequest) async throws(CatalogError) -> Item {
        try await store.item(id: request.id)
    }

    public func createItem(_ request: CreateItemRequest) async throws(CatalogError) -> Item {
        try await store.createItem(try Self.draft(request))
    }

    /// The most messages one ImportItems takes.
    public static let importLimit = 100_000

    /// Checks every request of the stream as CreateItem does, as it arrives, then has the store
    /// create them all in one transaction. The first refused message refuses the import with
    /// its error and `details.index`; a malformed stream ends it with the stream's status.
    public func importItems<Requests: AsyncSequence>(_ requests: Requests) async throws -> ImportItemsResponse
    where Requests.Element == CreateItemRequest {
        var drafts: [ItemDraft] = []
        var index = 0
        do {
            for try await request in requests {
                guard index < Self.importLimit else { throw CatalogError.tooManyItems(limit: Self.importLimit) }
                do {
                    drafts.append(try Self.draft(request))
                } catch {
                    throw error.atIndex(index)
                }
                index += 1
            }
        } catch let error as RPCError where error.code == .invalidArgument {
            // A message that does not decode names its field; the index says which message.
            throw CatalogError.invalidMessage(error, index: index)
        }
        return try await store.importItems(drafts)
    }

    /// A CreateItem request checked and normalized into a draft.
    private static func draft(_ request: CreateItemRequest) throws(CatalogError) -> ItemDraft {
        var draft = ItemDraft(title: try ItemRules.title(request.title), categoryID: request.categoryId)
        if let summary = request.summary { draft.summary = Self.nonEmpty(try ItemRules.summary(summary)) }
        if let level = request.level { draft.level = Self.nonEmpty(try ItemRules.shortText(level, field: "level")) }
        if let duration = request.duration {
            draft.duration = Self.nonEmpty(try ItemRules.shortText(duration, field: "duration"))
        }
        if let price = request.price { draft.price = try ItemRules.price(price) }
        if let imageURL = request.imageURL, !imageURL.isEmpty { draft.imageURL = try ItemRules.imageURL(imageURL) }
        return draft
    }

    public func updateItem(_ request: UpdateItemRequest) async throws(CatalogError) -> Item {
        var changes = ItemChanges(categoryID: request.categoryId)
        if let title = request.title { changes.title = try ItemRules.title(title) }
        changes.summary = try Self.textUpdate(request.summary) { text throws(CatalogError) in try ItemRules.summary(text) }
        changes.level = try Self.textUpdate(request.level) { text throws(CatalogError) in
            try ItemRules.shortText(text, field: "level")
        }
        changes.duration = try Self.textUpdate(request.duration) { text throws(CatalogError) in
            try ItemRules.shortText(text, field: "duration")
        }
        changes.imageURL = try Self.textUpdate(request.imageURL) { text throws(CatalogError) in try ItemRules.imageURL(text) }
        if case .set(let price) = request.price {
            changes.price = .set(try ItemRules.price(price))
        } else {
            changes.price = request.price
        }
        return try await store.updateItem(id: request.id, changes)
    }

    public func deleteItem(_ request: IDRequest) async throws(CatalogError) -> Empty {
        try await store.deleteItem(id: request.id)
        return Empty()
    }

    /// An optional text field's update: a value that is empty after trimming clears the field,
    /// any other value is validated.
    private static func textUpdate(
        _ update: FieldUpdate<String>,
        _ validate: (String) throws(CatalogError) -> String
    ) throws(CatalogError) -> FieldUpdate<String> {
        guard case .set(let text) = update else { return update }
        if TextRules.trimmed(text).isEmpty { return .clear }
        let valid = try validate(text)
        return valid.isEmpty ? .clear : .set(valid)
    }

    /// A checked (so trimmed) text, or `nil` when it is empty.
    private static func nonEmpty(_ text: String) -> String? {
        text.isEmpty ? nil : text
    }
}
