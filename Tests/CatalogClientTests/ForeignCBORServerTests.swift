import CatalogAPI
import CatalogKit
import Foundation
import RPCHTTP2
import Testing

/// `CatalogClient` in CBOR against a foreign server: Python's `h2` and `cbor2`
/// (`Python/cbor_server.py`), no gRPC library. That server answers only canonical CBOR sent as
/// `application/grpc+cbor`, so every answered call also checks what the client sent.
@Suite("CatalogClient in CBOR with a foreign server", .timeLimit(.minutes(1)))
struct ForeignCBORServerTests {
    static var cbor: CatalogClient.Configuration {
        var configuration = CatalogClient.Configuration.defaults
        configuration.codec = .cbor
        return configuration
    }

    /// An RFC 3339 timestamp, parsed by Foundation rather than by the client's codec.
    static func date(_ text: String) throws -> Date {
        try Date(text, strategy: .iso8601)
    }

    @Test("an item, the categories, NOT_FOUND with its detail and a Watch, as the foreign server sent them")
    func foreignAnswers() async throws {
        try await withForeignCBORServer { port, server in
            let client = try await CatalogClient.connect(port: port, configuration: Self.cbor)

            // The server's item also carries `popularity`, a key the contract does not know.
            let item = try await client.items.get(id: 17)
            #expect(item.id == 17)
            #expect(item.title == "Prompt Engineering")
            #expect(item.summary == "Écrire des consignes claires")
            #expect(item.level == "Débutant")
            #expect(item.duration == "2 jours")
            #expect(item.price == Money(amount: "990.00", currency: "EUR"))
            #expect(item.imageURL == "https://example.com/17.png")
            #expect(item.categoryId == 3)
            #expect(item.createdAt == (try Self.date("2026-01-23T10:00:00Z")))
            #expect(item.updatedAt == (try Self.date("2026-01-24T08:30:15Z")))

            let categories = try await client.categories.list()
            #expect(categories == (try Self.categories()))
            #expect(categories.count == 3 && categories[1].icon == nil)

            let missing = try await #require(throws: RPCError.self) { try await client.items.get(id: 404) }
            #expect(missing.code == .notFound)
            #expect(missing.message == "élément 404 introuvable")
            #expect(missing.reason == "notFound" && missing.details["id"] == 404, "\(missing)")

            var events: [FilterEvent] = []
            for try await event in client.filters.watch("formations") {
                events.append(event)
            }
            #expect(events.map(\.kind) == [.snapshot, .synced, .change])
            #expect(events.map(\.revision) == [41, 41, 42])
            #expect(events.map(\.previousRevision) == [nil, nil, 41])
            #expect(events == (try Self.watchEvents()))

            await client.close()
            #expect(server.standardError.isEmpty, "\(server.standardError)")
        }
    }

    @Test("the server refuses JSON and non-canonical CBOR: a CBOR call it answers was sent right")
    func serverChecksRequests() async throws {
        try await withForeignCBORServer { port, server in
            let json = try await CatalogClient.connect(port: port)
            let refused = try await #require(throws: RPCError.self) { try await json.categories.list() }
            #expect(refused.code == .invalidArgument && refused.message.hasSuffix("not 'application/grpc'"), "\(refused)")
            await json.close()

            var configuration = HTTP2ClientConfiguration.defaults
            configuration.contentType = "application/grpc+cbor"
            let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port, configuration: configuration)
            let call = try await connection.openCall(CatalogService.getItem.descriptor, options: .defaults)
            // {"id": 17} with 17 in two bytes (0x18 0x11) where one (0x11) is canonical.
            try await call.send([0xA1, 0x62, 0x69, 0x64, 0x18, 0x11], endOfStream: true)
            let notCanonical = try await #require(throws: RPCError.self) { _ = try await call.receive() }
            #expect(notCanonical.code == .internalError && notCanonical.message.contains("not canonical"), "\(notCanonical)")
            await connection.close()
            #expect(server.standardError.isEmpty, "\(server.standardError)")
        }
    }

    /// The categories `cbor_server.py` lists.
    static func categories() throws -> [Category] {
        [
            Category(
                id: 1, name: "Cuisine & Vins", slug: "cuisine_&_vins", color: "#E91E63", icon: "fork.knife", position: 0,
                isDefault: true, itemCount: 4, revision: 2,
                createdAt: try date("2026-01-20T09:00:00Z"), updatedAt: try date("2026-01-21T18:45:00Z")),
            Category(
                id: 3, name: "IA Générative", slug: "ia_générative", color: "#9C27B0", position: 1,
                isDefault: false, itemCount: 12, revision: 7,
                createdAt: try date("2026-01-23T10:00:00Z"), updatedAt: try date("2026-01-24T08:00:00Z")),
            Category(
                id: 8, name: "Photos 📷 東京", slug: "photos_📷_東京", color: "#4CAF50", icon: "camera", position: 2,
                isDefault: false, itemCount: 0, revision: 1,
                createdAt: try date("2026-01-25T12:30:00Z"), updatedAt: try date("2026-01-25T12:30:00Z")),
        ]
    }

    /// The events `cbor_server.py` sends on a Watch of `formations`: "all" at revision 41,
    /// then option 3 selected and the filter collapsed at 42.
    static func watchEvents() throws -> [FilterEvent] {
        let options = [
            FilterOption(id: 1, title: "Cuisine & Vins", icon: "fork.knife"), FilterOption(id: 3, title: "IA Générative"),
        ]
        let all = FilterState(
            filterId: "formations", title: "Catégories", options: options, presentation: .expanded, revision: 41,
            updatedAt: try date("2026-01-24T08:00:00Z"))
        let selected = FilterState(
            filterId: "formations", title: "Catégories", options: options, selectedId: 3, presentation: .collapsed,
            revision: 42, updatedAt: try date("2026-01-24T08:05:00Z"))
        return [
            FilterEvent(kind: .snapshot, revision: 41, state: all),
            FilterEvent(kind: .synced, revision: 41),
            FilterEvent(kind: .change, revision: 42, previousRevision: 41, state: selected),
        ]
    }
}
