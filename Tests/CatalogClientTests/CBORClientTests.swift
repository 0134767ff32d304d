import CatalogKit
import Foundation
import TestSupport
import Testing

/// `CatalogClient` with `codec = .cbor`: every kind of call over `application/grpc+cbor`,
/// answering what the JSON client answers.
@Suite("CatalogClient in CBOR", .timeLimit(.minutes(1)))
struct CBORClientTests {
    static var cbor: CatalogClient.Configuration {
        var configuration = CatalogClient.Configuration.defaults
        configuration.codec = .cbor
        return configuration
    }

    @Test("the codec is the connection's content type")
    func codecIsContentType() {
        var configuration = CatalogClient.Configuration.defaults
        #expect(configuration.codec == .json && configuration.connection.contentType == "application/grpc")
        configuration.codec = .cbor
        #expect(configuration.connection.contentType == "application/grpc+cbor")
    }

    @Test("unary calls, errors, a Watch and a raw call in CBOR answer as in JSON")
    func sameAnswers() async throws {
        let database = try TestDatabase()
        try await withCatalogServer(databasePath: database.path) { port in
            let cbor = try await CatalogClient.connect(port: port, configuration: Self.cbor)
            let json = try await CatalogClient.connect(port: port)
            let books = try await cbor.categories.create(name: "Livres", icon: "book")
            #expect(try await json.categories.get(id: books.id) == books)
            let item = try await cbor.items.create(
                title: "Swift", summary: "Un cours", price: Money(amount: "990.00", currency: "EUR"), categoryId: books.id)
            #expect(try await cbor.items.get(id: item.id) == json.items.get(id: item.id))
            #expect(try await cbor.items.list(categoryId: books.id) == json.items.list(categoryId: books.id))
            #expect(try await cbor.categories.stats() == json.categories.stats())

            let missing = try await #require(throws: RPCError.self) { try await cbor.items.get(id: 987_654) }
            #expect(missing.code == .notFound && missing.detail?.reason == "notFound")

            let start = try await cbor.filters.get("categories")
            let watcher = Task { () -> FilterEvent? in
                for try await event in cbor.filters.watch("categories", sinceRevision: start.revision) where event.state != nil {
                    return event
                }
                return nil
            }
            let selected = try await json.filters.select("categories", optionId: books.id)
            let change = try await watcher.value
            #expect(change?.kind == .change && change?.state == selected, "\(String(describing: change))")

            var raw: [String] = []
            for try await message in try await cbor.raw.call("catalog.v1.Categories/Get", request: Array(#"{"id": \#(books.id)}"#.utf8)) {
                raw.append(String(decoding: message, as: UTF8.self))
            }
            let rawCategory = try JSONDecoder().decode([String: JSONValue].self, from: Data(try #require(raw.first).utf8))
            #expect(raw.count == 1 && rawCategory["name"] == .string("Livres"), "\(raw)")
            await cbor.close()
            await json.close()
        }
    }
}
