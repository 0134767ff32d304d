import CatalogAPI
import CatalogServices
import CatalogStore
import RPCCore
import Testing

@Suite("Catalog service")
struct CatalogRPCServiceTests {
    let store = RecordingStore()
    var service: CatalogRPCService { CatalogRPCService(store: store) }

    /// Runs `body`, expects INVALID_ARGUMENT naming `field`, and that the store saw nothing.
    func expectInvalidField<Result>(
        _ field: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws -> Result
    ) async throws {
        let error = try #require(await catalogError(body), sourceLocation: sourceLocation)
        #expect(error.code == .invalidArgument, sourceLocation: sourceLocation)
        #expect(error.field == field, sourceLocation: sourceLocation)
        #expect(store.calls.isEmpty, "invalid input must not reach the store", sourceLocation: sourceLocation)
    }

    @Test("registers every method of catalog.v1.Catalog")
    func registersEveryMethod() {
        var router = Router()
        router.register(service)
        let methods: Set<MethodDescriptor> = [
            CatalogService.listItems.descriptor, CatalogService.getItem.descriptor, CatalogService.createItem.descriptor,
            CatalogService.updateItem.descriptor, CatalogService.deleteItem.descriptor, CatalogService.importItems.descriptor,
        ]
        #expect(Set(router.methods) == methods)
    }

    // MARK: ListItems

    @Test("ListItems with a page size outside 1 to 500 never reaches the store", arguments: [0, 501, -5])
    func listItemsBadPageSize(pageSize: Int) async throws {
        try await expectInvalidField("pageSize") {
            try await service.listItems(ListItemsRequest(pageSize: pageSize))
        }
    }

    @Test("ListItems refuses a query or level longer than any stored text, naming it", arguments: [
        (ListItemsRequest(query: String(repeating: "q", count: 201)), "query"),
        (ListItemsRequest(query: "1e" + String(repeating: "\u{301}", count: 400)), "query"),
        (ListItemsRequest(level: String(repeating: "l", count: 101)), "level"),
    ])
    func listItemsTextTooLong(request: ListItemsRequest, field: String) async throws {
        try await expectInvalidField(field) { try await service.listItems(request) }
    }

    @Test("ListItems maps the request to a query with its defaults")
    func listItemsQuery() async throws {
        _ = try await service.listItems(ListItemsRequest(query: " ", level: "", pageToken: ""))
        _ = try await service.listItems(
            ListItemsRequest(
                categoryId: 3, query: " prompt ", level: "Débutant", sort: .price, descending: true, pageSize: 500,
                pageToken: "abc"))
        #expect(
            store.calls == [
                .listItems(ItemQuery()),
                .listItems(
                    ItemQuery(
                        categoryID: 3, search: "prompt", level: "Débutant", sort: .price, descending: true, pageSize: 500,
                        pageToken: "abc")),
            ])
    }

    // MARK: GetItem, DeleteItem

    @Test("GetItem and DeleteItem pass the id")
    func getAndDelete() async throws {
        _ = try await service.getItem(IDRequest(id: 17))
        _ = try await service.deleteItem(IDRequest(id: 17))
        #expect(store.calls == [.item(id: 17), .deleteItem(id: 17)])
    }

    // MARK: CreateItem

    @Test("CreateItem hands the store a normalized draft")
    func createItem() async throws {
        _ = try await service.createItem(
            CreateItemRequest(
                title: " Prompt Engineering ", summary: "  ", level: " Débutant ", duration: "2 jours",
                price: Money(amount: "990", currency: "EUR"), imageURL: "https://example.com/17.png", categoryId: 3))
        _ = try await service.createItem(CreateItemRequest(title: "Bare", imageURL: ""))
        #expect(
            store.calls == [
                .createItem(
                    ItemDraft(
                        title: "Prompt Engineering", level: "Débutant", duration: "2 jours",
                        price: Money(amount: "990.00", currency: "EUR"), imageURL: "https://example.com/17.png", categoryID: 3)),
                .createItem(ItemDraft(title: "Bare")),
            ])
    }

    @Test("CreateItem with an invalid field never reaches the store", arguments: [
        (CreateItemRequest(title: "  "), "title"),
        (CreateItemRequest(title: "T", summary: "\u{0}"), "summary"),
        (CreateItemRequest(title: "T", level: "a\nb"), "level"),
        (CreateItemRequest(title: "T", duration: String(repeating: "d", count: 101)), "duration"),
        (CreateItemRequest(title: "T", price: Money(amount: "-1", currency: "EUR")), "price.amount"),
        (CreateItemRequest(title: "T", price: Money(amount: "1.00", currency: "euro")), "price.currency"),
        (CreateItemRequest(title: "T", imageURL: "ftp://example.com/a.png"), "imageURL"),
    ])
    func createItemInvalid(request: CreateItemRequest, field: String) async throws {
        try await expectInvalidField(field) { try await service.createItem(request) }
    }

    // MARK: UpdateItem

    @Test("UpdateItem passes only the fields present; null categoryId unassigns, empty texts clear")
    func updateItem() async throws {
        _ = try await service.updateItem(UpdateItemRequest(id: 17, title: " New ", price: .set(Money(amount: "5.5", currency: "USD"))))
        _ = try await service.updateItem(UpdateItemRequest(id: 17, summary: .set(" "), level: .clear, imageURL: .set(""), categoryId: .clear))
        _ = try await service.updateItem(UpdateItemRequest(id: 17, categoryId: .set(4)))
        #expect(
            store.calls == [
                .updateItem(id: 17, ItemChanges(title: "New", price: .set(Money(amount: "5.50", currency: "USD")))),
                .updateItem(id: 17, ItemChanges(summary: .clear, level: .clear, imageURL: .clear, categoryID: .clear)),
                .updateItem(id: 17, ItemChanges(categoryID: .set(4))),
            ])
    }

    @Test("UpdateItem with an invalid field never reaches the store", arguments: [
        (UpdateItemRequest(id: 17, title: ""), "title"),
        (UpdateItemRequest(id: 17, price: .set(Money(amount: "1.234", currency: "EUR"))), "price.amount"),
        (UpdateItemRequest(id: 17, imageURL: .set("not a url")), "imageURL"),
    ])
    func updateItemInvalid(request: UpdateItemRequest, field: String) async throws {
        try await expectInvalidField(field) { try await service.updateItem(request) }
    }

    // MARK: ImportItems

    @Test("ImportItems checks every request as CreateItem does and hands the store the normalized drafts")
    func importChecksEachRequest() async throws {
        let requests = [CreateItemRequest(title: "  Un  ", summary: "  "), CreateItemRequest(title: "Deux", categoryId: 3)]
        let response = try await service.importItems(AsyncStream { stream in
            for request in requests { stream.yield(request) }
            stream.finish()
        })
        #expect(response.created == 2)
        #expect(store.calls == [.importItems([ItemDraft(title: "Un"), ItemDraft(title: "Deux", categoryID: 3)])])

        let refused = try #require(await catalogError {
            try await service.importItems(AsyncStream { stream in
                stream.yield(CreateItemRequest(title: "fine"))
                stream.yield(CreateItemRequest(title: "priced", price: Money(amount: "-1", currency: "EUR")))
                stream.finish()
            })
        })
        #expect(refused.code == .invalidArgument && refused.field == "price.amount")
        #expect(refused.rpcError.detail?.details?["index"] == .integer(1))
        #expect(store.calls.count == 1, "a refused import does not reach the store")
    }

    @Test("ImportItems past 100 000 requests is RESOURCE_EXHAUSTED tooManyItems, and the store sees nothing")
    func importLimit() async throws {
        let tooMany = try #require(await catalogError {
            try await service.importItems(AsyncStream { stream in
                for index in 0...CatalogRPCService.importLimit { stream.yield(CreateItemRequest(title: "Item \(index)")) }
                stream.finish()
            })
        })
        #expect(tooMany.code == .resourceExhausted && tooMany.reason == "tooManyItems")
        #expect(store.calls.isEmpty)
    }
}
