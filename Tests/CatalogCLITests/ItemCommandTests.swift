import CatalogKit
import Foundation
import Testing

@Suite("catalog item commands")
struct ItemCommandTests {
    @Test("create with a price, level, duration and category name; update and clear fields")
    func createAndUpdate() async throws {
        try await withTestServer { server in
            let sandbox = try CLISandbox()
            let created = try await sandbox.run(
                [
                    "item", "create", "Swift sur serveur", "--price", "990 eur", "--level", "Avancé", "--duration", "2 jours",
                    "--category", "games", "--image-url", "https://example.com/s.png", "--server", server.address,
                ])
            #expect(created.status == 0, "\(created)")
            let item = try created.jsonObject()
            let id = try #require(item["id"] as? Int)
            #expect((item["price"] as? [String: String]) == ["amount": "990.00", "currency": "EUR"])
            #expect(item["level"] as? String == "Avancé" && item["duration"] as? String == "2 jours")
            #expect(item["categoryId"] as? Int == 3)

            let updated = try await sandbox.run(
                ["item", "update", "\(id)", "--title", "Swift côté serveur", "--clear", "price", "--clear", "category", "--server", server.address])
            #expect(updated.status == 0, "\(updated)")
            let stored = try await server.client.items.get(id: Int64(id))
            #expect(stored.title == "Swift côté serveur" && stored.price == nil && stored.categoryId == nil && stored.level == "Avancé")

            let both = try await sandbox.run(["item", "update", "\(id)", "--level", "x", "--clear", "level", "--server", server.address])
            #expect(both.status == 2, "\(both)")
            let badPrice = try await sandbox.run(["item", "update", "\(id)", "--price", "9.999 EUR", "--server", server.address])
            #expect(badPrice.status == 67 && badPrice.stderr.contains("field: price.amount"), "\(badPrice)")
        }
    }

    @Test("list filters by category name and query, pages, and --all follows every page")
    func list() async throws {
        try await withTestServer(demo: true) { server in
            let sandbox = try CLISandbox()
            let page = try await sandbox.run(["item", "list", "--page-size", "20", "--sort", "price", "--server", server.address])
            #expect(page.status == 0, "\(page)")
            let first = try page.jsonObject()
            #expect((first["items"] as? [Any])?.count == 20)
            #expect(first["totalCount"] as? Int == 50)
            let token = try #require(first["nextPageToken"] as? String)
            let second = try await sandbox.run(["item", "list", "--page-size", "20", "--sort", "price", "--page-token", token, "--server", server.address])
            #expect((try second.jsonObject()["items"] as? [Any])?.count == 20)

            let all = try await sandbox.run(["item", "list", "--page-size", "20", "--all", "-o", "ndjson", "--server", server.address])
            #expect(Set(try all.jsonLines().compactMap { $0["id"] as? Int }).count == 50)

            let byName = try await sandbox.run(["item", "list", "--category", "ia générative", "-o", "ndjson", "--server", server.address])
            let categoryIds = Set(try byName.jsonLines().compactMap { $0["categoryId"] as? Int })
            let expectedId = try await server.client.categories.list().first { $0.name == "IA Générative" }?.id
            #expect(categoryIds == [Int(try #require(expectedId))])

            let query = try await sandbox.run(["item", "list", "-q", "generative", "-o", "ndjson", "--server", server.address])
            let found = try query.jsonLines().compactMap { $0["id"] as? Int }
            let expected = try await server.client.items.list(query: "generative").items.map { Int($0.id) }
            #expect(!found.isEmpty)
            #expect(found == expected)
        }
    }
}
