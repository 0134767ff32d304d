import CatalogAPI
import Foundation
import RPCCore
import Testing

/// The messages that write their own JSON must write what their `Codable` form writes.
@Suite("Messages written directly as JSON")
struct JSONWritableMessagesTests {
    private static let names = [
        "Formations", "Café crème", "quote \" and \\ backslash", "tab\tnew\nline\u{01}", "emoji 🎓", "/slash/", "",
    ]

    private static func randomCategory(_ generator: inout some RandomNumberGenerator) -> Category {
        Category(
            id: Int64.random(in: 1...Int64.max, using: &generator), name: names.randomElement(using: &generator)!,
            slug: names.randomElement(using: &generator)!, color: "#A1B2C3",
            icon: Bool.random(using: &generator) ? nil : "book.closed", position: Int.random(in: 0...10_000, using: &generator),
            isDefault: Bool.random(using: &generator), itemCount: Int.random(in: 0...1_000_000, using: &generator),
            revision: Int64.random(in: 1...1000, using: &generator),
            createdAt: Date(timeIntervalSince1970: Double.random(in: 0...4e9, using: &generator)),
            updatedAt: Date(timeIntervalSince1970: Double.random(in: 0...4e9, using: &generator)))
    }

    @Test("a CategoryList writes the same bytes as through Codable, and decodes back")
    func categoryList() throws {
        var generator = SystemRandomNumberGenerator()
        let codec = JSONCodec()
        for count in [0, 1, 2, 500] {
            let list = CategoryList(categories: (0..<count).map { _ in Self.randomCategory(&generator) })
            let direct = try codec.encode(list)
            #expect(direct == (try codec.encode(ThroughCodable(list))))
            let decoded = try codec.decode(CategoryList.self, from: direct)
            #expect(decoded.categories.map(\.name) == list.categories.map(\.name))
            #expect(decoded.categories.map(\.icon) == list.categories.map(\.icon))
        }
    }

    @Test("a single Category writes the same bytes as through Codable")
    func category() throws {
        var generator = SystemRandomNumberGenerator()
        let codec = JSONCodec()
        for _ in 0..<200 {
            let category = Self.randomCategory(&generator)
            #expect(try codec.encode(category) == (try codec.encode(ThroughCodable(category))))
        }
    }

    private static func randomItem(_ generator: inout some RandomNumberGenerator) -> Item {
        func maybe(_ text: String) -> String? { Bool.random(using: &generator) ? text : nil }
        return Item(
            id: Int64.random(in: 1...Int64.max, using: &generator), title: names.randomElement(using: &generator)!,
            summary: maybe(names.randomElement(using: &generator)!), level: maybe("Débutant"), duration: maybe("2 jours"),
            price: Bool.random(using: &generator) ? nil : Money(amount: "990.00", currency: "EUR"),
            imageURL: maybe("https://example.com/a/b.png"),
            categoryId: Bool.random(using: &generator) ? nil : Int64.random(in: 1...10_000, using: &generator),
            createdAt: Date(timeIntervalSince1970: Double.random(in: 0...4e9, using: &generator)),
            updatedAt: Date(timeIntervalSince1970: Double.random(in: 0...4e9, using: &generator)))
    }

    @Test("an Item, and a ListItems page of them, write the same bytes as through Codable, and decode back")
    func items() throws {
        var generator = SystemRandomNumberGenerator()
        let codec = JSONCodec()
        for _ in 0..<200 {
            let item = Self.randomItem(&generator)
            let direct = try codec.encode(item)
            #expect(direct == (try codec.encode(ThroughCodable(item))))
            #expect(try codec.decode(Item.self, from: direct).price == item.price)
        }
        for count in [0, 1, 50] {
            let page = ListItemsResponse(
                items: (0..<count).map { _ in Self.randomItem(&generator) }, nextPageToken: count == 50 ? "next" : nil,
                totalCount: count * 3)
            let direct = try codec.encode(page)
            #expect(direct == (try codec.encode(ThroughCodable(page))))
            #expect(try codec.decode(ListItemsResponse.self, from: direct).items.map(\.id) == page.items.map(\.id))
        }
    }

    @Test("CategoryStats writes the same bytes as through Codable, whatever the shares")
    func stats() throws {
        let shares: [Double] = [0, 1, 0.5, 1.0 / 3.0, 1e-7, 0.1 + 0.2, 123_456.789]
        let entries = shares.enumerated().map { index, share in
            CategoryStats.Entry(id: Int64(index + 1), name: Self.names[index % Self.names.count], itemCount: index * 7, share: share)
        }
        let codec = JSONCodec()
        for stats in [
            CategoryStats(categoryCount: 0, itemCount: 0, uncategorizedItemCount: 0, emptyCategoryCount: 0, categories: []),
            CategoryStats(categoryCount: 7, itemCount: 147, uncategorizedItemCount: 3, emptyCategoryCount: 1, categories: entries),
        ] {
            let direct = try codec.encode(stats)
            #expect(direct == (try codec.encode(ThroughCodable(stats))))
            #expect(try codec.decode(CategoryStats.self, from: direct) == stats)
        }
    }
}
