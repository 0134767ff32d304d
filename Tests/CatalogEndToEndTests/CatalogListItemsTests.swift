import CatalogAPI
import Foundation
import RPCCore
import Testing

@Suite("Catalog: ListItems over the wire")
struct CatalogListItemsTests {
    @Test("ListItems filters by categoryId and by level")
    func filters() async throws {
        try await withCatalogServer { server in
            let family = try await server.category(named: "Family")
            let cars = try await server.category(named: "Cars")
            let a = try await server.createItem("A", level: "Débutant", categoryId: family.id)
            let b = try await server.createItem("B", level: "Avancé", categoryId: family.id)
            let c = try await server.createItem("C", level: "Débutant", categoryId: cars.id)
            let d = try await server.createItem("D", level: "Débutant")

            let inFamily = try await server.call(CatalogService.listItems, ListItemsRequest(categoryId: family.id))
            #expect(inFamily.items.map(\.id) == [a.id, b.id] && inFamily.totalCount == 2)
            let beginners = try await server.call(CatalogService.listItems, ListItemsRequest(level: "Débutant"))
            #expect(beginners.items.map(\.id) == [a.id, c.id, d.id] && beginners.totalCount == 3)
            let both = try await server.call(CatalogService.listItems, ListItemsRequest(categoryId: family.id, level: "Débutant"))
            #expect(both.items.map(\.id) == [a.id] && both.totalCount == 1)
        }
    }

    @Test(
        "ListItems query matches title and summary, case- and diacritic-insensitive",
        arguments: ["generative", "GENERATIVE", "Générative", "gÉnÉrAtIvE", "ia generative"])
    func query(text: String) async throws {
        try await withCatalogServer { server in
            let inTitle = try await server.createItem("IA Générative")
            let inSummary = try await server.createItem("Prompting", summary: "Les bases de l'IA générative")
            try await server.createItem("Cuisine", summary: "Recettes")
            let found = try await server.call(CatalogService.listItems, ListItemsRequest(query: text))
            #expect(found.items.map(\.id) == [inTitle.id, inSummary.id])
            #expect(found.totalCount == 2)
        }
    }

    @Test("an empty result is items: [] with totalCount 0, not an error")
    func emptyResult() async throws {
        try await withCatalogServer { server in
            try await server.createItem("Something")
            let none = try await server.call(CatalogService.listItems, ListItemsRequest(query: "nothing matches this"))
            #expect(none == ListItemsResponse(items: [], nextPageToken: nil, totalCount: 0, revision: 2), "read at the revision of the one write")
            let json = try await server.rawCall(CatalogService.listItems.descriptor, json: #"{"query":"nothing matches this"}"#)
            #expect(json.contains(#""items":[]"#))
            let games = try await server.category(named: "Games")
            #expect(try await server.call(CatalogService.listItems, ListItemsRequest(categoryId: games.id)).items == [])
        }
    }

    @Test("ListItems sorts by title, price and createdAt, ascending and descending", arguments: ItemSort.allCases, [false, true])
    func sorts(sort: ItemSort, descending: Bool) async throws {
        try await withCatalogServer { server in
            // Created in this order; prices chosen so that text order differs from numeric order.
            let created = [
                try await server.createItem("Delta", price: "10.00"),
                try await server.createItem("Alpha", price: "9.50"),
                try await server.createItem("Charlie", price: "990"),
                try await server.createItem("Bravo", price: "100.01"),
            ]
            let listed = try await server.call(CatalogService.listItems, ListItemsRequest(sort: sort, descending: descending)).items
            let expected: [String]
            switch sort {
            case .title: expected = ["Alpha", "Bravo", "Charlie", "Delta"]
            case .price: expected = ["Alpha", "Delta", "Bravo", "Charlie"]
            case .createdAt: expected = created.map(\.title)
            }
            #expect(listed.map(\.title) == (descending ? expected.reversed() : expected))
        }
    }

    @Test("ListItems with a pageSize outside 1...500 is INVALID_ARGUMENT on pageSize", arguments: [0, -1, 501, 10_000])
    func pageSizeOutOfRange(pageSize: Int) async throws {
        try await withCatalogServer { server in
            try await server.createItem("Something")
            try await server.expectError(
                CatalogService.listItems, ListItemsRequest(pageSize: pageSize), .invalidArgument, reason: "invalidField", field: "pageSize")
        }
    }

    @Test("ListItems accepts pageSize 1 and 500")
    func pageSizeBounds() async throws {
        try await withCatalogServer { server in
            try await server.createItems(2, in: nil)
            let one = try await server.call(CatalogService.listItems, ListItemsRequest(pageSize: 1))
            #expect(one.items.count == 1 && one.nextPageToken != nil && one.totalCount == 2)
            let all = try await server.call(CatalogService.listItems, ListItemsRequest(pageSize: 500))
            #expect(all.items.count == 2 && all.nextPageToken == nil)
        }
    }

    /// The last: the base64 of 513 `[`, which Foundation's JSONDecoder trapped on.
    @Test("a malformed pageToken is INVALID_ARGUMENT on pageToken", arguments: [
        "garbage!!", "AAAA", "eyJ4IjoxfQ", String(repeating: "W1tb", count: 171),
    ])
    func malformedPageToken(token: String) async throws {
        try await withCatalogServer { server in
            try await server.createItem("Something")
            try await server.expectError(
                CatalogService.listItems, ListItemsRequest(pageToken: token), .invalidArgument, reason: "invalidField", field: "pageToken")
        }
    }

    @Test("a pageToken of another query is INVALID_ARGUMENT on pageToken")
    func foreignPageToken() async throws {
        try await withCatalogServer { server in
            try await server.createItems(3, in: nil)
            let first = try await server.call(CatalogService.listItems, ListItemsRequest(sort: .title, pageSize: 1))
            let token = try #require(first.nextPageToken)
            try await server.expectError(
                CatalogService.listItems, ListItemsRequest(sort: .price, pageSize: 1, pageToken: token),
                .invalidArgument, reason: "invalidField", field: "pageToken")
        }
    }

    @Test("walking the pages of every sort visits every item once, in the one-page order", arguments: ItemSort.allCases, [false, true])
    func pagination(sort: ItemSort, descending: Bool) async throws {
        try await withCatalogServer { server in
            let family = try await server.category(named: "Family")
            let titles = ["Mango", "apple", "Kiwi", "banana", "Cherry", "date", "Fig", "grape", "Lemon", "lime", "Mango", "Olive", "pear"]
            for (index, title) in titles.enumerated() {
                // Repeated prices and titles, and a few without a price, to exercise the tie-breaks.
                let price: String? = index % 4 == 3 ? nil : "\(index % 3 * 5).\(index % 2)0"
                try await server.createItem(title, level: index % 2 == 0 ? "Débutant" : nil, price: price, categoryId: index % 3 == 0 ? family.id : nil)
            }
            for filter in [ListItemsRequest(), ListItemsRequest(categoryId: family.id), ListItemsRequest(query: "a"), ListItemsRequest(level: "Débutant")] {
                var request = filter
                request.sort = sort
                request.descending = descending
                request.pageSize = 500
                let whole = try await server.call(CatalogService.listItems, request)
                #expect(whole.nextPageToken == nil)
                #expect(whole.items.count == whole.totalCount)
                for pageSize in [1, 2, 5] {
                    request.pageSize = pageSize
                    request.pageToken = nil
                    var walked: [Item] = []
                    var pages = 0
                    repeat {
                        let page = try await server.call(CatalogService.listItems, request)
                        #expect(page.totalCount == whole.totalCount)
                        #expect(page.items.count <= pageSize)
                        #expect(page.nextPageToken == nil || page.items.count == pageSize)
                        walked += page.items
                        request.pageToken = page.nextPageToken
                        pages += 1
                    } while request.pageToken != nil && pages <= titles.count + 1
                    #expect(walked.map(\.id) == whole.items.map(\.id), "pageSize \(pageSize), \(filter)")
                    #expect(Set(walked.map(\.id)).count == walked.count, "a duplicate")
                }
            }
        }
    }
}
