import CatalogAPI
import Foundation
import RPCCore
import Testing

/// Contract messages through the CBOR codec: the mapping of the contract (§1), deterministic
/// bytes, and the same message whichever codec carried it.
@Suite("CBOR codec")
struct CBORCodecTests {
    static let codec = CBORCodec.shared

    static let item = Item(
        id: 42, title: "Swift", summary: nil, level: "advanced", duration: "3h", price: Money(amount: "990.00", currency: "EUR"),
        imageURL: nil, categoryId: 7, createdAt: Date(timeIntervalSince1970: 1_764_000_000),
        updatedAt: Date(timeIntervalSince1970: 1_764_000_001))

    @Test("a message is a map keyed by the JSON field names; absent optionals are left out; timestamps are RFC 3339 text")
    func mapping() throws {
        let value = try CBORReader.decode(try Self.codec.encode(Self.item))
        guard case .map(let entries) = value else {
            Issue.record("not a map: \(value)")
            return
        }
        let byKey = Dictionary(uniqueKeysWithValues: entries.compactMap { entry -> (String, CBORValue)? in
            guard case .text(let key) = entry.key else { return nil }
            return (key, entry.value)
        })
        #expect(byKey["id"] == .unsigned(42))
        #expect(byKey["title"] == .text("Swift"))
        #expect(byKey["summary"] == nil && byKey["imageURL"] == nil)
        #expect(byKey["price"] == .map([CBORMapEntry(.text("amount"), .text("990.00")), CBORMapEntry(.text("currency"), .text("EUR"))]))
        #expect(byKey["createdAt"] == .text("2025-11-24T16:00:00Z"))
        // The same keys as JSON gives.
        let json = try JSONSerialization.jsonObject(with: Data(try JSONCodec.shared.encode(Self.item))) as? [String: Any]
        #expect(Set(byKey.keys) == Set(json?.keys ?? [:].keys))
    }

    @Test("encoding is deterministic: keys in bytewise order of their encodings, equal messages equal bytes")
    func deterministic() throws {
        let bytes = try Self.codec.encode(Self.item)
        #expect(CBORWriter.encode(try CBORReader.decode(bytes)) == bytes)
        #expect(try Self.codec.encode(Self.item) == bytes)
    }

    @Test("messages round-trip, and a zero-length message reads as {}")
    func roundTrip() throws {
        #expect(try Self.codec.decode(Item.self, from: try Self.codec.encode(Self.item)) == Self.item)
        let request = try Self.codec.decode(ListCategoriesRequest.self, from: [])
        #expect(request == ListCategoriesRequest())
    }

    @Test("unknown keys are ignored; indefinite lengths and a tag 0 timestamp are read")
    func lenientReading() throws {
        var writer = CBORWriter()
        writer.write(.map([CBORMapEntry(.text("id"), .unsigned(5)), CBORMapEntry(.text("future"), .array([.null]))]))
        #expect(try Self.codec.decode(IDRequest.self, from: writer.bytes) == IDRequest(id: 5))
        // {_ "id": 5}
        #expect(try Self.codec.decode(IDRequest.self, from: [0xBF, 0x62, 0x69, 0x64, 0x05, 0xFF]) == IDRequest(id: 5))
        // {_ (_ "i", "d"): 5}: a key sent in chunks is the same key.
        #expect(try Self.codec.decode(IDRequest.self, from: [0xBF, 0x7F, 0x61, 0x69, 0x61, 0x64, 0xFF, 0x05, 0xFF]) == IDRequest(id: 5))
        // {"id": 5, (_ "z"): 6}: an unknown key in chunks is ignored.
        #expect(try Self.codec.decode(IDRequest.self, from: [0xA2, 0x62, 0x69, 0x64, 0x05, 0x7F, 0x61, 0x7A, 0xFF, 0x06]) == IDRequest(id: 5))
        // {"id": 5, (_ "i", "d"): 6}: the same key twice, once in chunks, is invalid.
        let twice = #expect(throws: RPCError.self) {
            try Self.codec.decode(IDRequest.self, from: [0xA2, 0x62, 0x69, 0x64, 0x05, 0x7F, 0x61, 0x69, 0x61, 0x64, 0xFF, 0x06])
        }
        #expect(twice?.detail?.reason == "invalidMessage")
    }

    @Test("a wrong type is INVALID_ARGUMENT naming the field; ill-formed bytes are INVALID_ARGUMENT invalidMessage")
    func badInput() throws {
        var writer = CBORWriter()
        writer.write(.map([CBORMapEntry(.text("id"), .text("five"))]))
        let wrongType = #expect(throws: RPCError.self) { try Self.codec.decode(IDRequest.self, from: writer.bytes) }
        #expect(wrongType?.code == .invalidArgument && wrongType?.detail?.field == "id", "\(String(describing: wrongType))")
        var tooBig = CBORWriter()
        tooBig.write(.map([CBORMapEntry(.text("id"), .unsigned(UInt64.max))]))
        let overflow = #expect(throws: RPCError.self) { try Self.codec.decode(IDRequest.self, from: tooBig.bytes) }
        #expect(overflow?.detail?.field == "id")
        let illFormed = #expect(throws: RPCError.self) { try Self.codec.decode(IDRequest.self, from: [0xA1, 0x62, 0x69]) }
        #expect(illFormed?.code == .invalidArgument && illFormed?.detail?.reason == "invalidMessage")
    }
}
