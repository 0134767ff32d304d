import CatalogKit
import Foundation
import Testing

@Suite("destructive commands without a terminal: --yes, --dry-run, or a refusal")
struct DestructiveCommandTests {
    @Test(
        "without --yes and without a terminal they refuse with 2 and change nothing, even with 'y' piped in",
        arguments: [
            ["category", "delete", "Books", "--items", "unassign"], ["category", "merge", "Books", "--into", "Cars"],
            ["item", "delete", "1"], ["category", "import", "@export", "--mode", "replace"],
        ])
    func refusal(arguments: [String]) async throws {
        try await withTestServer { server in
            let sandbox = try CLISandbox()
            let books = try await server.client.categories.create(name: "Books")
            let item = try await server.client.items.create(title: "A book", categoryId: books.id)
            #expect(item.id == 1)
            let export = try sandbox.writeFile("export.json", #"{"categories": []}"#)
            let arguments = arguments.map { $0 == "@export" ? export : $0 }
            for stdin in [nil, "y\n"] {
                let result = try await sandbox.run(arguments + ["--server", server.address], stdin: stdin)
                #expect(result.status == 2, "\(result)")
                #expect(result.stderr.contains("--yes"), "\(result)")
            }
            #expect(try await server.client.categories.list().map(\.name) == ["Family", "Cars", "Games", "Sports", "Books"])
            #expect(try await server.client.items.get(id: item.id).categoryId == books.id)
        }
    }

    @Test("category delete --dry-run tells what would happen and changes nothing; --yes deletes")
    func categoryDelete() async throws {
        try await withTestServer { server in
            let sandbox = try CLISandbox()
            let books = try await server.client.categories.create(name: "Books")
            for title in ["One", "Two"] { _ = try await server.client.items.create(title: title, categoryId: books.id) }

            let dryRun = try await sandbox.run(["category", "delete", "Books", "--items", "unassign", "--dry-run", "--server", server.address])
            #expect(dryRun.status == 0, "\(dryRun)")
            #expect(try dryRun.jsonObject()["unassignedItems"] as? Int == 2)
            let table = try await sandbox.run(["category", "delete", "Books", "--items", "unassign", "--dry-run", "-o", "table", "--server", server.address])
            #expect(table.stdout == "Would delete category 'Books' (id 5); 2 items would be unassigned.\n", "\(table)")
            #expect(try await server.client.categories.get(id: books.id).itemCount == 2)

            let deleted = try await sandbox.run(["category", "delete", "\(books.id)", "--items", "unassign", "--yes", "--server", server.address])
            #expect(deleted.status == 0, "\(deleted)")
            #expect(try deleted.jsonObject()["unassignedItems"] as? Int == 2)
            let error = try await #require(throws: RPCError.self) { try await server.client.categories.get(id: books.id) }
            #expect(error.code == .notFound)
        }
    }

    @Test("category merge --dry-run counts the moves; --yes merges")
    func merge() async throws {
        try await withTestServer { server in
            let sandbox = try CLISandbox()
            let books = try await server.client.categories.create(name: "Books")
            let comics = try await server.client.categories.create(name: "Comics")
            _ = try await server.client.items.create(title: "A comic", categoryId: comics.id)

            let dryRun = try await sandbox.run(["category", "merge", "Comics", "--into", "Books", "--dry-run", "--server", server.address])
            #expect(dryRun.status == 0, "\(dryRun)")
            let preview = try dryRun.jsonObject()
            #expect(preview["movedItems"] as? Int == 1)
            #expect(preview["deletedIds"] as? [Int] == [Int(comics.id)])
            #expect(try await server.client.categories.list().count == 6)

            let merged = try await sandbox.run(["category", "merge", "Comics", "--into", "Books", "--yes", "--server", server.address])
            #expect(merged.status == 0, "\(merged)")
            #expect(try await server.client.categories.get(id: books.id).itemCount == 1)
            #expect(try await server.client.categories.list().count == 5)
        }
    }

    @Test("item delete --yes deletes; --dry-run shows the item and keeps it")
    func itemDelete() async throws {
        try await withTestServer { server in
            let sandbox = try CLISandbox()
            let item = try await server.client.items.create(title: "Doomed")
            let dryRun = try await sandbox.run(["item", "delete", "\(item.id)", "--dry-run", "--server", server.address])
            #expect(dryRun.status == 0, "\(dryRun)")
            #expect(try dryRun.jsonObject()["title"] as? String == "Doomed")
            _ = try await server.client.items.get(id: item.id)

            let deleted = try await sandbox.run(["item", "delete", "\(item.id)", "--yes", "--server", server.address])
            #expect(deleted.status == 0, "\(deleted)")
            let gone = try await sandbox.run(["item", "get", "\(item.id)", "--server", server.address])
            #expect(gone.status == 69, "\(gone)")
        }
    }
}
