import CatalogKit
import Testing

@Suite("client.items against the real server")
struct ItemsClientTests {
    @Test("create, get, list, update and delete an item")
    func itemLifecycle() async throws {
        try await withConnectedClient { client in
            let family = try #require(try await client.categories.list().first)
            let created = try await client.items.create(
                title: "Prompt Engineering", summary: "Écrire des prompts", level: "Débutant", duration: "2 jours",
                price: Money(amount: "990.00", currency: "EUR"), categoryId: family.id)
            #expect(created.title == "Prompt Engineering")
            #expect(created.categoryId == family.id)

            #expect(try await client.items.get(id: created.id) == created)

            let page = try await client.items.list(query: "ecrire", pageSize: 10)
            #expect(page.items.map(\.id) == [created.id], "diacritic-insensitive query")
            #expect(page.totalCount == 1)
            #expect(try await client.items.list(categoryId: family.id + 1000).items.isEmpty)

            let updated = try await client.items.update(id: created.id, title: "Prompt Engineering 2", summary: .clear, categoryId: .clear)
            #expect(updated.title == "Prompt Engineering 2")
            #expect(updated.summary == nil)
            #expect(updated.categoryId == nil)
            #expect(updated.level == "Débutant", "absent fields are kept")
            #expect(try await client.items.get(id: created.id) == updated, "GetItem answers the new version")

            try await client.items.delete(id: created.id)
            let error = try await #require(throws: RPCError.self) { try await client.items.get(id: created.id) }
            #expect(error.code == .notFound)
            #expect(error.details["id"]?.int64Value == created.id)
        }
    }

    @Test("listItems pages with nextPageToken, sorted as asked")
    func paging() async throws {
        try await withConnectedClient { client in
            for title in ["C", "A", "B"] { _ = try await client.items.create(title: title) }
            let first = try await client.items.list(sort: .title, pageSize: 2)
            #expect(first.items.map(\.title) == ["A", "B"])
            #expect(first.totalCount == 3)
            let token = try #require(first.nextPageToken)
            let second = try await client.items.list(sort: .title, pageSize: 2, pageToken: token)
            #expect(second.items.map(\.title) == ["C"])
            #expect(second.nextPageToken == nil)
            #expect(try await client.items.list(sort: .title, descending: true).items.map(\.title) == ["C", "B", "A"])
        }
    }
}
