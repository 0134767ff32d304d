import CatalogAPI
import Foundation
import Testing

@testable import RPCCore

@Suite("Streaming JSON encoder: every catalog.v1 message as Foundation writes it")
struct CatalogMessageJSONTests {
    /// A message of any type, for parameterized tests.
    struct Message: Sendable, CustomTestStringConvertible {
        let value: any Codable & Hashable & Sendable
        init(_ value: any Codable & Hashable & Sendable) { self.value = value }
        var testDescription: String { String(describing: type(of: value)) }
    }

    static let created = Date(timeIntervalSince1970: 1_769_162_400)  // 2026-01-23T10:00:00Z
    static let updated = Date(timeIntervalSince1970: 1_769_241_600)  // 2026-01-24T08:00:00Z
    /// Strings that need escaping or are not ASCII.
    static let awkward = [
        "IA Générative", "say \"hi\"", #"C:\path\to"#, "line\nbreak\ttab\r\u{0}\u{1F}", "😀👨‍👩‍👧 e\u{301}", "a/b/c", "",
    ]

    static let category = Category(
        id: 3, name: "IA Générative", slug: "ia_générative", color: "#9C27B0", icon: "sparkles", position: 2,
        isDefault: false, itemCount: 12, revision: 7, createdAt: created, updatedAt: updated
    )
    static let categories = awkward.enumerated().map { index, name in
        Category(
            id: Int64(index + 1), name: name, slug: name.lowercased(), color: "#E91E63", icon: index.isMultiple(of: 2) ? "house" : nil,
            position: index, isDefault: index < 2, itemCount: index * 7, revision: Int64.max - Int64(index),
            createdAt: created, updatedAt: updated
        )
    }
    static let item = Item(
        id: 17, title: "Prompt Engineering", summary: "Deux jours \"intensifs\"\n…", level: "Débutant", duration: "2 jours",
        price: Money(amount: "990.00", currency: "EUR"), imageURL: "https://example.com/17.png", categoryId: 3,
        createdAt: created, updatedAt: updated
    )
    static let bareItem = Item(id: Int64.min, title: #"\"#, createdAt: created, updatedAt: updated)
    static let options = [FilterOption(id: 1, title: "Family", icon: "house"), FilterOption(id: 2, title: "Cars 🚗"), FilterOption(id: 3, title: "a/\"b\"")]
    static let state = FilterState(
        filterId: "formations", title: "Catégories", options: options, selectedId: 3, presentation: .expanded, revision: 42,
        updatedAt: updated, source: .categories
    )
    static let records = categories.map {
        CategoryRecord(name: $0.name, color: $0.color, icon: $0.icon, position: $0.position, isDefault: $0.isDefault)
    }

    static let messages: [Message] = [
        Message(category), Message(CategoryList(categories: categories)), Message(CategoryList(categories: [])),
        Message(item), Message(bareItem), Message(Money(amount: "-0.01", currency: "USD")),
        Message(ListItemsRequest()),
        Message(ListItemsRequest(categoryId: 3, query: "générative \"ia\"", level: "Débutant", sort: .createdAt, descending: true, pageSize: 500, pageToken: "eyJ0Ijoi/+=")),
        Message(ListItemsResponse(items: [item, bareItem], nextPageToken: "next/page", totalCount: 2)),
        Message(ListItemsResponse(items: [], totalCount: 0)),
        Message(IDRequest(id: Int64.max)),
        Message(CreateItemRequest(title: "t", summary: "s", level: "l", duration: "d", price: Money(amount: "1.00", currency: "EUR"), imageURL: "https://x/y", categoryId: 1)),
        Message(CreateItemRequest(title: "only a title")),
        Message(UpdateItemRequest(id: 1, title: "new", summary: .clear, level: .set("Avancé"), price: .set(Money(amount: "2.50", currency: "EUR")), categoryId: .clear)),
        Message(UpdateItemRequest(id: 2)),
        Message(ListCategoriesRequest(query: "q", hideEmpty: true, sort: .itemCount, descending: false)),
        Message(ListCategoriesRequest()),
        Message(CreateCategoryRequest(name: "Books", color: "#FF5722", icon: "book")),
        Message(UpdateCategoryRequest(id: 4, name: "n", color: "#000000", icon: "i", isDefault: true, expectedRevision: 9)),
        Message(DeleteCategoryRequest(id: 5, items: .move, moveTo: 6, expectedRevision: 1, dryRun: true)),
        Message(DeleteCategoryResponse(deletedItems: 0, movedItems: 3, unassignedItems: 1)),
        Message(MoveCategoryRequest(id: 1, direction: .up)), Message(MoveCategoryRequest(id: 1, toPosition: 0, expectedRevision: 2)),
        Message(MergeCategoriesRequest(sourceIds: [1, 2, 3], targetId: 4, dryRun: false)),
        Message(MergeCategoriesResponse(target: category, movedItems: 12, deletedIds: [])),
        Message(AssignItemsRequest(itemIds: [], categoryId: nil, dryRun: true)), Message(AssignItemsResponse(updated: 3)),
        Message(MoveItemsRequest(fromId: 1, toId: 2)), Message(MoveItemsResponse(moved: 0)),
        Message(CategoryStats(
            categoryCount: 3, itemCount: 10, uncategorizedItemCount: 1, emptyCategoryCount: 1,
            categories: [
                .init(id: 1, name: "a", itemCount: 1, share: 0.1), .init(id: 2, name: "b", itemCount: 3, share: 1.0 / 3),
                .init(id: 3, name: "c", itemCount: 0, share: 0), .init(id: 4, name: "d", itemCount: 6, share: 1e-7),
                .init(id: 5, name: "e", itemCount: 6, share: 1),
            ]
        )),
        Message(Palette(colors: ["#E91E63", "#F44336"])),
        Message(CategoryExport(exportedAt: created, categories: records)),
        Message(ImportCategoriesRequest(categories: records, mode: .replace, dryRun: true)),
        Message(ImportCategoriesResponse(created: 1, updated: 2, unchanged: 3, deleted: 4)),
        Message(options[0]), Message(state),
        Message(FilterState(filterId: "f", title: "", options: [], revision: 1, updatedAt: created)),
        Message(FilterEvent(kind: .snapshot, revision: 43, state: state, reset: true)),
        Message(FilterEvent(kind: .change, revision: 44, previousRevision: 41, state: state)),
        Message(FilterEvent(kind: .synced, revision: 44)), Message(FilterEvent(kind: .heartbeat, revision: 44)),
        Message(FilterEvent(kind: .unknown("digest"), revision: 45)),
        Message(FilterState(filterId: "f", title: "", options: [], presentation: .unknown("sideways"), revision: 2, updatedAt: created, source: .unknown("tags"))),
        Message(DefineFilterRequest(filterId: "f", title: "t", options: options)),
        Message(DefineFilterRequest(filterId: "categories", title: "t", source: .categories)),
        Message(FilterIDRequest(filterId: "formations")), Message(FilterList(filters: [state, state])),
        Message(SelectFilterRequest(filterId: "f", optionId: 2, toggle: true)), Message(SelectFilterRequest(filterId: "f")),
        Message(SetPresentationRequest(filterId: "f", presentation: .collapsed)),
        Message(WatchFilterRequest(filterId: "f", sinceRevision: 40, delivery: .everyChange, heartbeatSeconds: 3600)),
        Message(WatchFilterRequest(filterId: "f")),
        Message(HealthCheckRequest()), Message(HealthCheckRequest(service: "catalog.v1.Categories")),
        Message(HealthCheckResponse(status: .serving)), Message(HealthCheckResponse(status: .notServing)),
        Message(CatalogContract.document), Message(Empty()),
        Message(ErrorDetail(reason: "categoryNotEmpty")),
        Message(ErrorDetail(
            reason: "invalidField", field: "items[2].price.amount",
            details: ["id": 42, "itemCount": 0, "share": 0.25, "name": "a/\"b\"", "list": .array([1, "two", .null, true, .object(["k": -1e21])])]
        )),
    ]

    @Test("our JSON equals Foundation's but for key order, and decodes back to the message", arguments: messages)
    func matchesFoundation(message: Message) throws {
        try check(message.value)
    }

    /// Our bytes have Foundation's canonical form, are valid JSON to `JSONSerialization`, and
    /// decode with the codec to the same message.
    func check<Value: Codable & Hashable>(_ value: Value) throws {
        let streamed = try ReferenceJSON.streamed(value)
        #expect(try CanonicalJSON.canonical(streamed) == CanonicalJSON.canonical(ReferenceJSON.encode(value)))
        #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(streamed)) }
        #expect(try JSONCodec().decode(Value.self, from: streamed) == value)
        #expect(try JSONCodec().encode(value) == streamed)
    }

    @Test("the contract's Category example, byte for byte, keys in declaration order")
    func contractExample() throws {
        let json = try JSONCodec().encode(Self.category)
        #expect(
            String(decoding: json, as: UTF8.self)
                == ##"{"id":3,"name":"IA Générative","slug":"ia_générative","color":"#9C27B0","icon":"sparkles","position":2,"isDefault":false,"itemCount":12,"revision":7,"createdAt":"2026-01-23T10:00:00Z","updatedAt":"2026-01-24T08:00:00Z"}"##
        )
    }

    @Test("a FilterEvent's absent optionals are left out and a cleared update field is null")
    func optionals() throws {
        #expect(try JSONCodec().encode(FilterEvent(kind: .synced, revision: 44)) == Array(#"{"kind":"synced","revision":44}"#.utf8))
        #expect(try JSONCodec().encode(UpdateItemRequest(id: 1, summary: .clear)) == Array(#"{"id":1,"summary":null}"#.utf8))
    }

    @Test("a list of 10 000 categories")
    func longList() throws {
        let many = (0..<10_000).map { index in
            var category = Self.categories[index % Self.categories.count]
            category.id = Int64(index)
            category.position = index
            return category
        }
        try check(CategoryList(categories: many))
    }
}
