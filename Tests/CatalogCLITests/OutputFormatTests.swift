import CatalogKit
import Foundation
import Testing

@Suite("catalog output formats, piped")
struct OutputFormatTests {
    @Test("piped output defaults to JSON: the response message with its fields in contract order")
    func defaultJSON() async throws {
        try await withTestServer(demo: true) { server in
            let sandbox = try CLISandbox()
            let result = try await sandbox.run(["item", "get", "1", "--server", server.address])
            #expect(result.status == 0, "\(result)")
            let item = try result.jsonObject()
            let expected = try await server.client.items.get(id: 1)
            #expect(item["id"] as? Int == 1)
            #expect(item["title"] as? String == expected.title)
            let price = try #require(item["price"] as? [String: Any])
            #expect(price["amount"] as? String == expected.price?.amount)
            #expect(price["currency"] as? String == "EUR")
            #expect(item["createdAt"] as? String == expected.createdAt.ISO8601Format())
            #expect(result.stdout.hasPrefix("{\n  \"id\": 1,\n  \"title\": "), "keys in the contract's order")
        }
    }

    @Test("-o ndjson prints one compact JSON object per record of a list")
    func ndjsonList() async throws {
        try await withTestServer(demo: true) { server in
            let sandbox = try CLISandbox()
            let result = try await sandbox.run(["category", "list", "-o", "ndjson", "--server", server.address])
            #expect(result.status == 0, "\(result)")
            let lines = try result.jsonLines()
            let categories = try await server.client.categories.list()
            #expect(lines.count == categories.count)
            #expect(lines.map { $0["name"] as? String } == categories.map(\.name))
            #expect(lines.map { $0["id"] as? Int } == categories.map { Int($0.id) })
        }
    }

    @Test("-o yaml says the same as -o json, read back by an independent YAML parser")
    func yamlMatchesJSON() async throws {
        try await withTestServer(demo: true) { server in
            let sandbox = try CLISandbox()
            // Strings that YAML would read as other types unless quoted.
            _ = try await server.client.items.create(
                title: "yes", summary: "line one\nline two: \"quoted\" # not a comment", level: "null", duration: "2026-01-23T10:00:00Z",
                price: Money(amount: "0990.5", currency: "EUR"))
            for arguments in [["item", "list", "--page-size", "500"], ["category", "stats"], ["filter", "get", "categories"]] {
                let json = try await sandbox.run(arguments + ["-o", "json", "--server", server.address])
                let yaml = try await sandbox.run(arguments + ["-o", "yaml", "--server", server.address])
                #expect(json.status == 0 && yaml.status == 0, "\(json)\n\(yaml)")
                let fromYAML = try await YAMLReader.jsonValue(of: yaml.stdout)
                #expect(NSDictionary(dictionary: try json.jsonObject()).isEqual(fromYAML), "\(arguments): \(yaml.stdout)")
            }
        }
    }

    @Test("-o table and --no-headers: columns for people, also when piped")
    func tableWhenAsked() async throws {
        try await withTestServer { server in
            let sandbox = try CLISandbox()
            let table = try await sandbox.run(["category", "list", "-o", "table", "--server", server.address])
            #expect(table.status == 0, "\(table)")
            let lines = table.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first?.split(separator: " ", omittingEmptySubsequences: true) == ["ID", "NAME", "ITEMS", "COLOR", "ICON", "DEFAULT"])
            #expect(lines.count == 5)
            #expect(lines[1].contains("Family") && lines[1].contains("#E91E63"))
            #expect(!table.stdout.contains("\u{1B}["), "no colours when standard output is not a terminal")

            let bare = try await sandbox.run(["category", "list", "-o", "table", "--no-headers", "--server", server.address])
            let words = { (line: String) in line.split(whereSeparator: \.isWhitespace) }
            #expect(bare.stdout.split(separator: "\n").map(String.init).map(words) == lines.dropFirst().map(words))
        }
    }
}
