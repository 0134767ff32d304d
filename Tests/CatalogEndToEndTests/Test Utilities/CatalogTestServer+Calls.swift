import CatalogAPI
import Foundation
import RPCCore
import Testing

/// Everything the API shows of the catalog: the categories in position order and every item.
struct CatalogSnapshot: Equatable {
    var categories: [Category]
    var items: [Item]
}

extension CatalogTestServer {
    // MARK: Calls that check the invariants afterwards

    /// Calls `method`, expecting success, then checks the invariants.
    @discardableResult
    func call<Request, Response>(
        _ method: UnaryMethod<Request, Response>,
        _ request: Request,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Response {
        let response: Response
        do {
            response = try await client.unary(method, request)
        } catch {
            try await checkInvariants(sourceLocation: sourceLocation)
            throw error
        }
        try await checkInvariants(sourceLocation: sourceLocation)
        return response
    }

    /// Calls `method` expecting it to succeed without changing anything (a dry run).
    @discardableResult
    func callChangingNothing<Request, Response>(
        _ method: UnaryMethod<Request, Response>,
        _ request: Request,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Response {
        let before = try await snapshot()
        let response = try await call(method, request, sourceLocation: sourceLocation)
        let after = try await snapshot()
        #expect(after == before, "the call changed the catalog", sourceLocation: sourceLocation)
        return response
    }

    /// Calls `method` expecting it to fail with `code` and `reason` (and `field`, `details.id`
    /// when given) and to change nothing; then checks the invariants.
    @discardableResult
    func expectError<Request, Response>(
        _ method: UnaryMethod<Request, Response>,
        _ request: Request,
        _ code: StatusCode,
        reason: String,
        field: String? = nil,
        id: Int64? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> RPCError? {
        let before = try await snapshot()
        var failure: RPCError?
        do {
            let response = try await client.unary(method, request)
            Issue.record("expected \(code.name) \(reason), got \(response)", sourceLocation: sourceLocation)
        } catch {
            failure = error
        }
        if let failure {
            #expect(failure.code == code, "\(failure)", sourceLocation: sourceLocation)
            #expect(failure.detail?.reason == reason, "\(failure)", sourceLocation: sourceLocation)
            if let field {
                #expect(failure.detail?.field == field, "\(failure)", sourceLocation: sourceLocation)
            }
            if let id {
                #expect(failure.detail?.details?["id"]?.intValue == Int(id), "\(failure)", sourceLocation: sourceLocation)
            }
        }
        let after = try await snapshot()
        #expect(after == before, "a failed call changed the catalog", sourceLocation: sourceLocation)
        try await checkInvariants(sourceLocation: sourceLocation)
        return failure
    }

    /// Sends `json` as the request of a unary method through a raw call stream and returns the
    /// response JSON.
    func rawCall(_ descriptor: MethodDescriptor, json: String) async throws -> String {
        let call = try await connection.openCall(descriptor, options: .defaults)
        try await call.send(Array(json.utf8), endOfStream: true)
        let bytes = try #require(try await call.receive())
        #expect(try await call.receive() == nil)
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Reads (no invariant check, so that the checks can use them)

    /// The categories in position order.
    func categories() async throws -> [Category] {
        try await client.unary(CategoriesService.list, ListCategoriesRequest()).categories
    }

    /// The category called `name`.
    func category(named name: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Category {
        try #require(try await categories().first { $0.name == name }, sourceLocation: sourceLocation)
    }

    /// Every item, by walking the pages of `ListItems` in creation order.
    func allItems() async throws -> [Item] {
        var items: [Item] = []
        var token: String?
        repeat {
            let page = try await client.unary(CatalogService.listItems, ListItemsRequest(pageSize: 500, pageToken: token))
            items += page.items
            token = page.nextPageToken
        } while token != nil
        return items
    }

    func snapshot() async throws -> CatalogSnapshot {
        CatalogSnapshot(categories: try await categories(), items: try await allItems())
    }

    // MARK: Invariants

    /// Positions dense, slugs unique, no dangling categoryId, and every count (itemCount,
    /// ListItems totals, Stats) agreeing with the items themselves.
    func checkInvariants(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let snapshot = try await snapshot()
        let categories = snapshot.categories
        let items = snapshot.items
        #expect(categories.map(\.position) == Array(0..<categories.count), "positions not dense", sourceLocation: sourceLocation)
        #expect(Set(categories.map(\.slug)).count == categories.count, "slugs not unique", sourceLocation: sourceLocation)
        #expect(Set(items.map(\.id)).count == items.count, "an item listed twice", sourceLocation: sourceLocation)
        #expect(!categories.isEmpty, "no category left", sourceLocation: sourceLocation)

        let ids = Set(categories.map(\.id))
        var counts: [Int64: Int] = [:]
        var uncategorized = 0
        for item in items {
            if let categoryID = item.categoryId {
                #expect(ids.contains(categoryID), "item \(item.id) points at missing category \(categoryID)", sourceLocation: sourceLocation)
                counts[categoryID, default: 0] += 1
            } else {
                uncategorized += 1
            }
        }
        let total = try await client.unary(CatalogService.listItems, ListItemsRequest(pageSize: 1)).totalCount
        #expect(total == items.count, sourceLocation: sourceLocation)
        for category in categories {
            let listed = try await client.unary(CatalogService.listItems, ListItemsRequest(categoryId: category.id, pageSize: 1))
            #expect(category.itemCount == counts[category.id, default: 0], "itemCount of \(category.name)", sourceLocation: sourceLocation)
            #expect(listed.totalCount == counts[category.id, default: 0], "ListItems total of \(category.name)", sourceLocation: sourceLocation)
        }

        let stats = try await client.unary(CategoriesService.stats, Empty())
        #expect(stats.categoryCount == categories.count, sourceLocation: sourceLocation)
        #expect(stats.itemCount == items.count, sourceLocation: sourceLocation)
        #expect(stats.uncategorizedItemCount == uncategorized, sourceLocation: sourceLocation)
        #expect(stats.emptyCategoryCount == categories.filter { counts[$0.id, default: 0] == 0 }.count, sourceLocation: sourceLocation)
        #expect(Set(stats.categories.map(\.id)) == ids, sourceLocation: sourceLocation)
        for entry in stats.categories {
            let count = counts[entry.id, default: 0]
            #expect(entry.itemCount == count, "Stats count of \(entry.name)", sourceLocation: sourceLocation)
            let share = items.isEmpty ? 0 : Double(count) / Double(items.count)
            #expect(abs(entry.share - share) < 1e-9, "Stats share of \(entry.name)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Fixtures

    @discardableResult
    func createCategory(_ name: String, color: String? = nil, icon: String? = nil) async throws -> Category {
        try await call(CategoriesService.create, CreateCategoryRequest(name: name, color: color, icon: icon))
    }

    @discardableResult
    func createItem(
        _ title: String, summary: String? = nil, level: String? = nil, price: String? = nil, categoryId: Int64? = nil
    ) async throws -> Item {
        try await call(
            CatalogService.createItem,
            CreateItemRequest(
                title: title, summary: summary, level: level, price: price.map { Money(amount: $0, currency: "EUR") },
                categoryId: categoryId))
    }

    /// `count` items in the category.
    @discardableResult
    func createItems(_ count: Int, in categoryId: Int64?, prefix: String = "Item") async throws -> [Item] {
        var items: [Item] = []
        for index in 0..<count {
            items.append(try await createItem("\(prefix) \(index)", categoryId: categoryId))
        }
        return items
    }
}

/// The palette, in the contract's order.
let contractPalette = [
    "#E91E63", "#F44336", "#9C27B0", "#4CAF50", "#2196F3", "#FF9800",
    "#795548", "#607D8B", "#009688", "#FFEB3B", "#3F51B5", "#FF5722",
]
