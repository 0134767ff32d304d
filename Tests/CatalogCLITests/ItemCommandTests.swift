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

    @Test("import reads CSV and JSON lines, answers a JSON summary when piped, and names the refused line")
    func importFiles() async throws {
        try await withTestServer { server in
            let sandbox = try CLISandbox()
            let csv = try sandbox.writeFile(
                "items.csv",
                "title,price,categoryId,summary\r\n\"Swift, avancé\",990.00 EUR,1,\"Deux \"\"jours\"\"\"\r\nGo,,,\r\n")
            let imported = try await sandbox.run(["item", "import", csv, "--server", server.address])
            #expect(imported.status == 0, "\(imported)")
            let summary = try imported.jsonObject()
            #expect(summary["created"] as? Int == 2)
            let first = try #require(summary["firstId"] as? Int)
            #expect(summary["lastId"] as? Int == first + 1)
            let swift = try await server.client.items.get(id: Int64(first))
            #expect(swift.title == "Swift, avancé" && swift.summary == "Deux \"jours\"" && swift.categoryId == 1)
            #expect(swift.price == Money(amount: "990.00", currency: "EUR"))
            #expect(swift.revision == Int64(try #require(summary["revision"] as? Int)))

            let jsonl = try sandbox.writeFile("items.jsonl", #"{"title": "A"}"# + "\n\n" + #"{"title": "B", "categoryId": 99}"# + "\n")
            let refused = try await sandbox.run(["item", "import", jsonl, "--server", server.address])
            #expect(refused.status != 0, "\(refused)")
            #expect(refused.stderr.contains("items.jsonl:3:"), "the line of the refused item: \(refused.stderr)")
            #expect(refused.stderr.contains("NOT_FOUND"), "\(refused.stderr)")
            #expect(try await server.client.items.list().totalCount == 2, "nothing of the refused file was created")

            let unknownColumn = try sandbox.writeFile("bad.csv", "title,colour\nx,red\n")
            let usage = try await sandbox.run(["item", "import", unknownColumn, "--server", server.address])
            #expect(usage.status == 2 && usage.stderr.contains("unknown column 'colour'"), "\(usage)")
        }
    }
}
