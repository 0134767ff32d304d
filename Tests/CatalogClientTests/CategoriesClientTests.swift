import CatalogKit
import Testing

@Suite("client.categories against the real server")
struct CategoriesClientTests {
    @Test("list, get, create(name:color:icon:) and update")
    func createAndUpdate() async throws {
        try await withConnectedClient { client in
            let defaults = try await client.categories.list()
            #expect(defaults.map(\.name) == ["Family", "Cars", "Games", "Sports"])

            let books = try await client.categories.create(name: "Books", color: "#112233", icon: "book")
            #expect(books.position == 4)
            #expect(books.color == "#112233")
            #expect(try await client.categories.get(id: books.id) == books)
            #expect(try await client.categories.list(query: "boo").map(\.id) == [books.id])

            let renamed = try await client.categories.update(id: books.id, name: "Livres", expectedRevision: books.revision)
            #expect(renamed.name == "Livres")
            #expect(renamed.revision == books.revision + 1)

            let stale = try await #require(throws: RPCError.self) {
                try await client.categories.update(id: books.id, icon: "x", expectedRevision: books.revision)
            }
            #expect(stale.code == .aborted)
            #expect(stale.reason == "revisionMismatch")
        }
    }

    @Test("move by direction and to a position; merge; delete with a dry run")
    func moveMergeDelete() async throws {
        try await withConnectedClient { client in
            let a = try await client.categories.create(name: "A")
            let b = try await client.categories.create(name: "B")
            #expect(try await client.categories.move(id: b.id, direction: .up).map(\.name).suffix(2) == ["B", "A"])
            #expect(try await client.categories.move(id: b.id, toPosition: 0).first?.id == b.id)

            let item = try await client.items.create(title: "Thing", categoryId: a.id)
            let merged = try await client.categories.merge(sourceIds: [a.id], into: b.id)
            #expect(merged.deletedIds == [a.id])
            #expect(merged.movedItems == 1)
            #expect(try await client.items.get(id: item.id).categoryId == b.id)

            let preview = try await client.categories.delete(id: b.id, items: .unassign, dryRun: true)
            #expect(preview.unassignedItems == 1)
            #expect(try await client.categories.get(id: b.id).id == b.id, "a dry run changes nothing")
            let notEmpty = try await #require(throws: RPCError.self) { try await client.categories.delete(id: b.id) }
            #expect(notEmpty.reason == "categoryNotEmpty")
            #expect(notEmpty.details["itemCount"]?.intValue == 1)
            let report = try await client.categories.delete(id: b.id, items: .delete)
            #expect(report.deletedItems == 1)
        }
    }

    @Test("assignItems, unassign and moveItems")
    func items() async throws {
        try await withConnectedClient { client in
            let from = try await client.categories.create(name: "From")
            let to = try await client.categories.create(name: "To")
            let one = try await client.items.create(title: "One")
            let two = try await client.items.create(title: "Two")
            #expect(try await client.categories.assignItems([one.id, two.id], to: from.id).updated == 2)
            #expect(try await client.categories.moveItems(from: from.id, to: to.id).moved == 2)
            #expect(try await client.items.get(id: one.id).categoryId == to.id)
            #expect(try await client.categories.assignItems([one.id], to: nil).updated == 1)
            #expect(try await client.items.get(id: one.id).categoryId == nil)
        }
    }

    @Test("stats, palette, export and import")
    func reports() async throws {
        try await withConnectedClient { client in
            let cars = try #require(try await client.categories.list().first { $0.name == "Cars" })
            _ = try await client.items.create(title: "Car", categoryId: cars.id)
            _ = try await client.items.create(title: "Loose")
            let stats = try await client.categories.stats()
            #expect(stats.categoryCount == 4)
            #expect(stats.itemCount == 2)
            #expect(stats.uncategorizedItemCount == 1)
            #expect(stats.categories.first { $0.id == cars.id }?.share == 0.5)

            let palette = try await client.categories.palette()
            #expect(palette.count == 12)
            #expect(palette.first == "#E91E63")

            let export = try await client.categories.export()
            #expect(export.format == "catalog.categories.v1")
            #expect(export.categories.map(\.name) == ["Family", "Cars", "Games", "Sports"])

            var records = export.categories
            records.append(CategoryRecord(name: "Imported", color: "#000000", position: 4, isDefault: false))
            let dryRun = try await client.categories.import(records, mode: .merge, dryRun: true)
            #expect(dryRun.created == 1)
            #expect(dryRun.unchanged == 4)
            #expect(try await client.categories.list().count == 4, "a dry run changes nothing")
            #expect(try await client.categories.import(records, mode: .merge).created == 1)
            #expect(try await client.categories.list().last?.name == "Imported")
        }
    }
}
