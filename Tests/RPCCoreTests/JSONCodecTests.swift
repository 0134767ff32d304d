import Foundation
import RPCCore
import Testing

@Suite("JSONCodec")
struct JSONCodecTests {
    struct Item: Codable, Equatable {
        var id: Int
        var name: String
        var note: String?
        var tags: [String]?
        var price: Double?
    }

    struct Filter: Codable, Equatable {
        var query: String?
        var limit: Int?
    }

    struct Order: Codable, Equatable {
        var items: [Line]
    }

    struct Line: Codable, Equatable {
        var id: Int
        var sku: String?
    }

    struct Stamped: Codable, Equatable {
        var at: Date
    }

    struct StampedList: Codable, Equatable {
        var items: [Stamped]
    }

    let codec = JSONCodec()

    /// The top-level keys of an encoded object, parsed by Foundation.
    func keys(of bytes: [UInt8]) throws -> Set<String> {
        let object = try JSONSerialization.jsonObject(with: Data(bytes))
        return Set(try #require(object as? [String: Any]).keys)
    }

    /// The `RPCError` that decoding `json` as `type` throws.
    func decodingError<T: Decodable>(_ type: T.Type, _ json: String) throws -> RPCError {
        try #require(throws: RPCError.self) { try codec.decode(type, from: Array(json.utf8)) }
    }

    @Test("round-trips a struct with every optional set")
    func roundTripFull() throws {
        let item = Item(id: 7, name: "Générative ✓ / slash", note: "n", tags: ["a", "b"], price: 9.5)
        let bytes = try codec.encode(item)
        #expect(try keys(of: bytes) == ["id", "name", "note", "tags", "price"])
        #expect(!String(decoding: bytes, as: UTF8.self).contains("\\/"), "slashes are not escaped")
        #expect(try codec.decode(Item.self, from: bytes) == item)
    }

    @Test("omits absent optionals from the output bytes")
    func omitsAbsentOptionals() throws {
        let item = Item(id: 1, name: "x")
        let bytes = try codec.encode(item)
        #expect(try keys(of: bytes) == ["id", "name"])
        #expect(!String(decoding: bytes, as: UTF8.self).contains("null"))
        #expect(try codec.decode(Item.self, from: bytes) == item)
        #expect(try codec.encode(Filter()) == Array("{}".utf8))
    }

    @Test("decodes zero-length bytes as {}")
    func emptyBytes() throws {
        #expect(try codec.decode(Filter.self, from: []) == Filter())
        #expect(try codec.decode(Empty.self, from: []) == Empty())
        let error = try #require(throws: RPCError.self) { try codec.decode(Item.self, from: []) }
        #expect(error.code == .invalidArgument)
        #expect(error.detail?.field == "id", "the first required key in declaration order")
    }

    @Test("ignores unknown keys")
    func unknownKeys() throws {
        let json = #"{"id": 3, "name": "x", "extra": {"deep": [1, 2, null]}, "note": null, "more": true}"#
        #expect(try codec.decode(Item.self, from: Array(json.utf8)) == Item(id: 3, name: "x"))
    }

    @Test("rejects invalid JSON with INVALID_ARGUMENT and reason invalidMessage", arguments: [
        "{", "not json", "[1,", #"{"id":}"#, #"{"id": 1, "name": "x""#, "{}}", "\u{FEFF}\u{0}",
    ])
    func invalidJSON(json: String) throws {
        let error = try decodingError(Item.self, json)
        #expect(error.code == .invalidArgument)
        #expect(error.detail?.reason == "invalidMessage")
        #expect(error.detail?.field == nil)
    }

    @Test("rejects bytes that are not UTF-8 with reason invalidMessage")
    func invalidUTF8() throws {
        let error = try #require(throws: RPCError.self) { try codec.decode(Filter.self, from: [0xFF, 0xFE, 0x7B]) }
        #expect(error.code == .invalidArgument)
        #expect(error.detail?.reason == "invalidMessage")
    }

    @Test("names a missing required key in the detail's field", arguments: [
        (#"{"name": "x"}"#, "id"),
        (#"{"id": 1}"#, "name"),
        (#"{"items": [{"id": 1}, {"sku": "a"}]}"#, "items[1].id"),
    ])
    func missingKey(json: String, field: String) throws {
        let error: RPCError =
            if field.hasPrefix("items") {
                try decodingError(Order.self, json)
            } else {
                try decodingError(Item.self, json)
            }
        #expect(error.code == .invalidArgument)
        #expect(error.detail?.reason == "invalidField")
        #expect(error.detail?.field == field)
        #expect(error.message.contains(field))
    }

    @Test("names the path of a type mismatch, array indices included", arguments: [
        (#"{"items": [{"id": 1}, {"id": "two"}]}"#, "items[1].id"),
        (#"{"items": [{"id": 1}, {"id": 2, "sku": 3}]}"#, "items[1].sku"),
        (#"{"items": {"id": 1}}"#, "items"),
        (#"{"items": [{"id": 1}, {"id": null}]}"#, "items[1].id"),
    ])
    func typeMismatch(json: String, field: String) throws {
        let error = try decodingError(Order.self, json)
        #expect(error.code == .invalidArgument)
        #expect(error.detail?.reason == "invalidField")
        #expect(error.detail?.field == field)
    }

    @Test("encodes dates as RFC 3339 UTC and decodes them back")
    func dates() throws {
        let stamped = Stamped(at: Date(timeIntervalSince1970: 1_700_000_000))
        let bytes = try codec.encode(stamped)
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"at":"2023-11-14T22:13:20Z"}"#)
        #expect(try codec.decode(Stamped.self, from: bytes) == stamped)
    }

    @Test("names the field of a malformed timestamp", arguments: [
        (#"{"at": "yesterday"}"#, "at"),
        (#"{"at": "2023-11-14"}"#, "at"),
        (#"{"at": 1700000000}"#, "at"),
        (#"{"items": [{"at": "2023-11-14T22:13:20Z"}, {"at": "soon"}]}"#, "items[1].at"),
    ])
    func malformedDate(json: String, field: String) throws {
        let error: RPCError =
            if field.hasPrefix("items") {
                try decodingError(StampedList.self, json)
            } else {
                try decodingError(Stamped.self, json)
            }
        #expect(error.code == .invalidArgument)
        #expect(error.detail?.reason == "invalidField")
        #expect(error.detail?.field == field)
    }

    @Test("refuses text nested deeper than Foundation takes, the 513 arrays it trapped on included", arguments: [513, 514, 100_000])
    func tooDeep(depth: Int) {
        let error = #expect(throws: RPCError.self) { try codec.decode(Order.self, from: Array(repeating: UInt8(ascii: "["), count: depth)) }
        #expect(error?.code == .invalidArgument && error?.message.contains("nests deeper than 512 levels") == true)
        let shallow = #expect(throws: RPCError.self) { try codec.decode(Order.self, from: Array(repeating: UInt8(ascii: "["), count: 512)) }
        #expect(shallow?.code == .invalidArgument && shallow?.message.contains("nests deeper") == false)
    }

    @Test("counts nesting outside strings only")
    func nestingOutsideStrings() {
        #expect(JSONNesting.exceeds(1, in: Array("[[]]".utf8)))
        #expect(!JSONNesting.exceeds(1, in: Array(#"["[[{", "\"[[" ]"#.utf8)))
        #expect(!JSONNesting.exceeds(2, in: Array(#"{"a": [1], "b": {"c": 2}}"#.utf8)))
        #expect(JSONNesting.exceeds(2, in: Array(#"{"a": [[1]]}"#.utf8)))
    }

    @Test("is what both content types use")
    func contentTypesUseJSON() throws {
        for contentType in [ContentType.grpc, .grpcJSON] {
            #expect(try contentType.codec.encode(Filter(query: "q")) == codec.encode(Filter(query: "q")))
        }
    }
}
