import CatalogKit
import Foundation
import Testing

@Suite("catalog category commands")
struct CategoryCommandTests {
    @Test("create, update and move: names or ids, and the new order")
    func createUpdateMove() async throws {
        try await withTestServer { server in
            let sandbox = try CLISandbox()
            let created = try await sandbox.run(["category", "create", "Books", "--icon", "book", "--server", server.address])
            #expect(created.status == 0, "\(created)")
            let books = try created.jsonObject()
            #expect(books["color"] as? String == "#2196F3", "palette colour of position 4")

            let updated = try await sandbox.run(
                ["category", "update", "books", "--name", "Livres", "--color", "#00ff00", "--default", "--server", server.address])
            #expect(updated.status == 0, "\(updated)")
            let livres = try updated.jsonObject()
            #expect(livres["name"] as? String == "Livres" && livres["color"] as? String == "#00FF00" && livres["isDefault"] as? Bool == true)

            let stale = try await sandbox.run(["category", "update", "Livres", "--icon", "x", "--expected-revision", "1", "--server", server.address])
            #expect(stale.status == 74, "ABORTED: \(stale)")
            #expect(stale.stderr.contains("revisionMismatch"))

            let moved = try await sandbox.run(["category", "move", "Livres", "--to", "0", "-o", "ndjson", "--server", server.address])
            #expect(moved.status == 0, "\(moved)")
            #expect(try moved.jsonLines().map { $0["name"] as? String } == ["Livres", "Family", "Cars", "Games", "Sports"])
            let up = try await sandbox.run(["category", "move", "Livres", "--up", "--server", server.address])
            #expect(up.status == 73 && up.stderr.contains("alreadyFirst"), "\(up)")
        }
    }

    @Test("assign, move-items and stats")
    func itemsOfCategories() async throws {
        try await withTestServer { server in
            let sandbox = try CLISandbox()
            let first = try await server.client.items.create(title: "One")
            let second = try await server.client.items.create(title: "Two")
            let assigned = try await sandbox.run(["category", "assign", "\(first.id)", "\(second.id)", "--to", "Cars", "--server", server.address])
            #expect(assigned.status == 0, "\(assigned)")
            #expect(try assigned.jsonObject()["updated"] as? Int == 2)

            let moved = try await sandbox.run(["category", "move-items", "--from", "Cars", "--to", "Games", "-o", "table", "--server", server.address])
            #expect(moved.stdout == "Moved 2 items from 'Cars' to 'Games'.\n", "\(moved)")

            let stats = try await sandbox.run(["category", "stats", "--server", server.address])
            let document = try stats.jsonObject()
            #expect(document["itemCount"] as? Int == 2)
            let games = try #require((document["categories"] as? [[String: Any]])?.first { $0["name"] as? String == "Games" })
            #expect(games["share"] as? Double == 1)

            let unassigned = try await sandbox.run(["category", "assign", "\(first.id)", "--unassign", "--server", server.address])
            #expect(unassigned.status == 0, "\(unassigned)")
            #expect(try await server.client.items.get(id: first.id).categoryId == nil)
            let missing = try await sandbox.run(["category", "assign", "999", "--to", "Cars", "--server", server.address])
            #expect(missing.status == 69, "\(missing)")
        }
    }

    @Test("export then import: a round trip in batches, and replace deletes what the file does not name")
    func exportImport() async throws {
        try await withTestServer { server in
            let sandbox = try CLISandbox()
            let file = sandbox.directory.appendingPathComponent("categories.json").path
            let exported = try await sandbox.run(["category", "export", "--file", file, "--server", server.address])
            #expect(exported.status == 0, "\(exported)")

            var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
            var records = try #require(document["categories"] as? [[String: Any]])
            #expect(records.count == 4)
            for index in 0..<25 { records.append(["name": "Topic \(index)", "color": "#112233", "position": 4 + index, "isDefault": false]) }
            document["categories"] = records
            try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: file))

            let imported = try await sandbox.run(["category", "import", file, "--batch-size", "10", "--server", server.address])
            #expect(imported.status == 0, "\(imported)")
            let counts = try imported.jsonObject()
            #expect(counts["created"] as? Int == 25 && counts["unchanged"] as? Int == 4 && counts["deleted"] as? Int == 0)
            #expect(try await server.client.categories.list().count == 29)

            _ = try await server.client.categories.create(name: "Stray")
            let subset = try sandbox.writeFile("subset.json", try String(decoding: JSONSerialization.data(withJSONObject: Array(records.prefix(6))), as: UTF8.self))
            let dryRun = try await sandbox.run(["category", "import", subset, "--mode", "replace", "--dry-run", "--server", server.address])
            #expect(try dryRun.jsonObject()["deleted"] as? Int == 24, "\(dryRun)")
            #expect(try await server.client.categories.list().count == 30)

            let replaced = try await sandbox.run(
                ["category", "import", subset, "--mode", "replace", "--batch-size", "4", "--yes", "--server", server.address])
            #expect(replaced.status == 0, "\(replaced)")
            let result = try replaced.jsonObject()
            #expect(result["deleted"] as? Int == 24 && result["unchanged"] as? Int == 6)
            #expect(try await server.client.categories.list().map(\.name) == ["Family", "Cars", "Games", "Sports", "Topic 0", "Topic 1"])
        }
    }
}
