import CatalogAPI
import Foundation
import RPCCore
import Testing

@Suite("Catalog: CreateItem, GetItem, UpdateItem and DeleteItem over the wire")
struct CatalogItemTests {
    @Test("CreateItem stores every field and GetItem answers the same item")
    func createAndGet() async throws {
        try await withCatalogServer { server in
            let games = try await server.category(named: "Games")
            let created = try await server.call(
                CatalogService.createItem,
                CreateItemRequest(
                    title: "  Prompt Engineering ", summary: "Écrire de bons prompts", level: "Débutant", duration: "2 jours",
                    price: Money(amount: "990", currency: "EUR"), imageURL: "https://example.com/17.png", categoryId: games.id))
            #expect(created.title == "Prompt Engineering")
            #expect(created.summary == "Écrire de bons prompts")
            #expect(created.level == "Débutant")
            #expect(created.duration == "2 jours")
            #expect(created.price == Money(amount: "990.00", currency: "EUR"))
            #expect(created.imageURL == "https://example.com/17.png")
            #expect(created.categoryId == games.id)
            #expect(try await server.call(CatalogService.getItem, IDRequest(id: created.id)) == created)
            #expect(try await server.call(CategoriesService.get, IDRequest(id: games.id)).itemCount == 1)

            let bare = try await server.createItem("Bare")
            #expect(bare.summary == nil && bare.level == nil && bare.price == nil && bare.categoryId == nil)
        }
    }

    @Test("CreateItem naming a missing category is NOT_FOUND with its id and creates nothing")
    func createInMissingCategory() async throws {
        try await withCatalogServer { server in
            try await server.expectError(
                CatalogService.createItem, CreateItemRequest(title: "Orphan", categoryId: 808), .notFound, reason: "notFound", id: 808)
        }
    }

    @Test("CreateItem refuses invalid fields with INVALID_ARGUMENT naming them")
    func createInvalid() async throws {
        try await withCatalogServer { server in
            let cases: [(CreateItemRequest, String)] = [
                (CreateItemRequest(title: "  "), "title"),
                (CreateItemRequest(title: "A\u{1}B"), "title"),
                (CreateItemRequest(title: "Priced", price: Money(amount: "-1", currency: "EUR")), "price.amount"),
                (CreateItemRequest(title: "Priced", price: Money(amount: "1", currency: "eur")), "price.currency"),
                (CreateItemRequest(title: "Pictured", imageURL: "ftp://example.com/a.png"), "imageURL"),
            ]
            for (request, field) in cases {
                try await server.expectError(CatalogService.createItem, request, .invalidArgument, reason: "invalidField", field: field)
            }
        }
    }

    @Test("GetItem of a missing id is NOT_FOUND with that id")
    func getMissing() async throws {
        try await withCatalogServer { server in
            try await server.expectError(CatalogService.getItem, IDRequest(id: 55), .notFound, reason: "notFound", id: 55)
        }
    }

    @Test("UpdateItem changes the fields present and keeps the absent ones")
    func updateFields() async throws {
        try await withCatalogServer { server in
            let family = try await server.category(named: "Family")
            let cars = try await server.category(named: "Cars")
            let item = try await server.createItem("Old", summary: "Kept", level: "Avancé", price: "10", categoryId: family.id)
            let updated = try await server.call(
                CatalogService.updateItem,
                UpdateItemRequest(id: item.id, title: "New", price: .set(Money(amount: "12.5", currency: "USD")), categoryId: .set(cars.id)))
            #expect(updated.title == "New")
            #expect(updated.summary == "Kept" && updated.level == "Avancé")
            #expect(updated.price == Money(amount: "12.50", currency: "USD"))
            #expect(updated.categoryId == cars.id)
            #expect(updated.createdAt == item.createdAt)
            #expect(try await server.call(CatalogService.getItem, IDRequest(id: item.id)) == updated)
            #expect(try await server.call(CategoriesService.get, IDRequest(id: family.id)).itemCount == 0)
            #expect(try await server.call(CategoriesService.get, IDRequest(id: cars.id)).itemCount == 1)
        }
    }

    @Test("UpdateItem with a JSON null clears that field and leaves the absent ones")
    func updateNullClears() async throws {
        try await withCatalogServer { server in
            let family = try await server.category(named: "Family")
            let item = try await server.createItem("Title", summary: "Summary", level: "Débutant", price: "5", categoryId: family.id)
            let json = try await server.rawCall(CatalogService.updateItem.descriptor, json: #"{"id":\#(item.id),"summary":null}"#)
            let cleared = try JSONCodec.shared.decode(Item.self, from: Array(json.utf8))
            #expect(!json.contains("\"summary\""))
            #expect(cleared.summary == nil)
            #expect(cleared.level == "Débutant" && cleared.price == Money(amount: "5.00", currency: "EUR"))
            #expect(cleared.categoryId == family.id)
            try await server.checkInvariants()

            let unassignedJSON = try await server.rawCall(
                CatalogService.updateItem.descriptor, json: #"{"id":\#(item.id),"categoryId":null,"price":null}"#)
            let unassigned = try JSONCodec.shared.decode(Item.self, from: Array(unassignedJSON.utf8))
            #expect(unassigned.categoryId == nil && unassigned.price == nil)
            #expect(unassigned.level == "Débutant")
            #expect(try await server.call(CatalogService.getItem, IDRequest(id: item.id)) == unassigned)
            #expect(try await server.call(CategoriesService.get, IDRequest(id: family.id)).itemCount == 0)
        }
    }

    @Test("UpdateItem naming a missing category, or a missing item, is NOT_FOUND with that id and changes nothing")
    func updateMissing() async throws {
        try await withCatalogServer { server in
            let family = try await server.category(named: "Family")
            let item = try await server.createItem("Title", categoryId: family.id)
            try await server.expectError(
                CatalogService.updateItem, UpdateItemRequest(id: item.id, title: "Changed", categoryId: .set(909)),
                .notFound, reason: "notFound", id: 909)
            try await server.expectError(
                CatalogService.updateItem, UpdateItemRequest(id: 910, title: "Ghost"), .notFound, reason: "notFound", id: 910)
        }
    }

    @Test("DeleteItem removes the item and its count; deleting it again is NOT_FOUND with its id")
    func deleteItem() async throws {
        try await withCatalogServer { server in
            let sports = try await server.category(named: "Sports")
            let item = try await server.createItem("Gone", categoryId: sports.id)
            try await server.call(CatalogService.deleteItem, IDRequest(id: item.id))
            #expect(try await server.call(CategoriesService.get, IDRequest(id: sports.id)).itemCount == 0)
            try await server.expectError(CatalogService.getItem, IDRequest(id: item.id), .notFound, reason: "notFound", id: item.id)
            try await server.expectError(CatalogService.deleteItem, IDRequest(id: item.id), .notFound, reason: "notFound", id: item.id)
        }
    }
}
