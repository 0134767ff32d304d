import CatalogKit
import CatalogTesting
import CatalogViewModels
import ObservationTestSupport
import Testing

/// `CategoryListModel` against an `InProcessCatalog`: its states, and each action's effect
/// on the list compared with what the server lists afterwards.
@Suite("CategoryListModel")
@MainActor
struct CategoryListModelTests {
    @Test("loading, then loaded with the demo categories")
    func loads() async throws {
        let catalog = try await InProcessCatalog.start(seedDemo: true)
        let model = CategoryListModel(categories: catalog.client.categories)
        #expect(model.state == .loading)
        let state = try await nextChange(of: { model.state }, "the loaded list") { await model.load() }
        let expected = try await catalog.client.categories.list()
        #expect(state == .loaded(expected))
        #expect(model.categories.map(\.name).contains("IA Générative"))
        await catalog.close()
    }

    @Test("empty when nothing matches the query; the query, sort and hideEmpty go to the server")
    func empty() async throws {
        let catalog = try await InProcessCatalog.start()
        let model = CategoryListModel(categories: catalog.client.categories)
        await model.load()
        #expect(model.categories.count == 4, "a new catalog has its default categories")
        model.query = "no category is called this"
        await model.load()
        #expect(model.state == .empty)

        model.query = ""
        model.sort = .name
        model.descending = true
        await model.load()
        #expect(model.categories == (try await catalog.client.categories.list(sort: .name, descending: true)))
        model.hideEmpty = true
        await model.load()
        #expect(model.state == .empty, "no category of a new catalog has items")
        await catalog.close()
    }

    @Test("failed with the error when the list cannot be read; an action refused to a reader leaves the list")
    func failed() async throws {
        let catalog = try await InProcessCatalog.start(tokens: [("r", .reader, "reader-secret")])
        let anonymous = CategoryListModel(categories: catalog.client.categories)
        await anonymous.load()
        guard case .failed(let error) = anonymous.state else {
            Issue.record("state is \(anonymous.state)")
            return
        }
        #expect(error.code == .unauthenticated)

        let reader = CategoryListModel(categories: catalog.newClient(bearerToken: "reader-secret").categories)
        await reader.load()
        let shown = reader.state
        #expect(reader.categories.count == 4)
        #expect(await reader.create(name: "Books") == nil)
        #expect(reader.lastError?.code == .permissionDenied)
        #expect(reader.state == shown, "a refused action leaves the list")
        await catalog.close()
    }

    @Test("create, rename and move show the server's answers in the list")
    func createRenameMove() async throws {
        let catalog = try await InProcessCatalog.start(seedDemo: true)
        let model = CategoryListModel(categories: catalog.client.categories)
        await model.load()

        let books = try #require(await model.create(name: "Books", icon: "book"))
        #expect(model.categories.last == books)
        #expect(model.categories == (try await catalog.client.categories.list()))

        let renamed = try #require(await model.rename(id: books.id, to: "Livres"))
        #expect(renamed.name == "Livres")
        #expect(model.categories == (try await catalog.client.categories.list()))

        let order = try #require(await model.move(id: books.id, direction: .up))
        #expect(model.categories == order)
        #expect(model.categories == (try await catalog.client.categories.list()))
        #expect(model.categories.firstIndex { $0.id == books.id } == model.categories.count - 2)

        #expect(await model.create(name: "livres") == nil, "a taken name")
        #expect(model.lastError?.reason == "duplicateName")
        let first = try #require(model.categories.first)
        #expect(await model.move(id: first.id, direction: .up) == nil)
        #expect(model.lastError?.reason == "alreadyFirst")
        #expect(model.categories == (try await catalog.client.categories.list()))
        model.dismissError()
        #expect(model.lastError == nil)
        await catalog.close()
    }

    @Test("a rename of a category changed elsewhere since it was shown is refused, and the list is loaded again")
    func staleRename() async throws {
        let catalog = try await InProcessCatalog.start()
        let model = CategoryListModel(categories: catalog.client.categories)
        let books = try await catalog.client.categories.create(name: "Books")
        await model.load()
        _ = try await catalog.newClient().categories.update(id: books.id, name: "Bücher")

        #expect(await model.rename(id: books.id, to: "Livres") == nil)
        #expect(model.lastError?.code == .aborted)
        #expect(model.lastError?.reason == "revisionMismatch")
        #expect(model.categories.first { $0.id == books.id }?.name == "Bücher")
        #expect(model.categories == (try await catalog.client.categories.list()))
        await catalog.close()
    }

    @Test("delete and merge load the list again, as the server lists it")
    func deleteMerge() async throws {
        let catalog = try await InProcessCatalog.start()
        let client = catalog.client
        let model = CategoryListModel(categories: client.categories)
        await model.load()
        let books = try #require(await model.create(name: "Books"))
        let comics = try #require(await model.create(name: "Comics"))
        let novels = try #require(await model.create(name: "Novels"))
        let item = try await client.items.create(title: "Watchmen", categoryId: comics.id)

        #expect(await model.delete(id: comics.id) == nil)
        #expect(model.lastError?.reason == "categoryNotEmpty")
        #expect(model.categories.contains { $0.id == comics.id })

        let merged = try #require(await model.merge(sourceIds: [comics.id], into: books.id))
        #expect(merged.deletedIds == [comics.id])
        #expect(model.categories == (try await client.categories.list()))
        #expect(model.categories.first { $0.id == books.id }?.itemCount == 1)
        #expect(try await client.items.get(id: item.id).categoryId == books.id)

        let report = try #require(await model.delete(id: books.id, items: .move, moveTo: novels.id))
        #expect(report.movedItems == 1)
        #expect(model.categories == (try await client.categories.list()))
        #expect(model.categories.first { $0.id == novels.id }?.itemCount == 1)
        #expect(model.lastError == nil)
        await catalog.close()
    }

    @Test("with a query, an action's answer is not shown as it is: the list is loaded again")
    func actionsUnderQuery() async throws {
        let catalog = try await InProcessCatalog.start()
        let model = CategoryListModel(categories: catalog.client.categories)
        model.query = "boo"
        await model.load()
        #expect(model.state == .empty)

        let books = try #require(await model.create(name: "Books"))
        _ = try #require(await model.create(name: "Comics"))
        #expect(model.categories == [books])
        _ = try #require(await model.move(id: books.id, direction: .up))
        #expect(model.categories == (try await catalog.client.categories.list(query: "boo")))
        _ = try #require(await model.rename(id: books.id, to: "Livres"))
        #expect(model.state == .empty)
        await catalog.close()
    }
}
