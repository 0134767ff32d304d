import CatalogAPI
import Foundation
import Testing

@testable import RPCCore

/// `Message` through its `Codable` conformance only: the codecs see no generated path.
struct ThroughCodable<Message: Codable & Hashable>: Codable, Hashable {
    var message: Message
    init(_ message: Message) { self.message = message }
    init(from decoder: any Decoder) throws { message = try Message(from: decoder) }
    func encode(to encoder: any Encoder) throws { try message.encode(to: encoder) }
}

/// The JSON and CBOR paths generated from each message's description (Sources/CatalogAPI/Wire)
/// against the `Codable` paths they stand in for: the same bytes out, the same values in, and
/// for damaged input the same error, for every message of the contract.
@Suite("Generated coding paths match Codable", .timeLimit(.minutes(2)))
struct GeneratedCodingTests {
    /// Every sample message of the contract with generated paths and every Watch event.
    static func eachSample(_ body: (any (Codable & Hashable).Type, JSONValue, String) throws -> Void) throws {
        let types = ContractSchemaTests.messageTypes()
        for (samples, response) in [(try ContractSchemaTests.sampleRequests(), false), (try ContractSchemaTests.sampleResponses(), true)] {
            for (path, sample) in samples.sorted(by: { $0.key < $1.key }) {
                let pair = try #require(types[path])
                let messageType = response ? pair.response : pair.request
                let hashable = messageType as? any (Codable & Hashable).Type
                let type = try #require(hashable, "\(messageType)")
                guard type is any CBORReadable.Type else { continue }
                try body(type, sample, "\(path) \(response ? "response" : "request")")
            }
        }
        for event in ContractSchemaTests.watchEvents {
            let sample = try ContractSchemaTests.jsonValue(Data(JSONCodec.shared.encode(event)))
            try body(FilterEvent.self, sample, "event \(event.kind)")
        }
    }

    static func message<Message: Codable>(_ type: Message.Type, _ sample: JSONValue) throws -> Message {
        try JSONDecoder.contract.decode(Message.self, from: JSONEncoder().encode(sample))
    }

    @Test("every message writes the JSON and the CBOR its Codable form writes, and reads both back itself")
    func sameBytes() throws {
        var samples = 0
        try Self.eachSample { type, sample, label in
            try Self.sameBytes(type, sample, label)
            samples += 1
        }
        #expect(samples >= 40, "every message but Empty and the contract document has generated paths")
    }

    private static func sameBytes<Message: Codable & Hashable>(_ type: Message.Type, _ sample: JSONValue, _ label: String) throws {
        let message = try Self.message(Message.self, sample)
        let json = try JSONCodec.shared.encode(message)
        #expect(json == (try JSONCodec.shared.encode(ThroughCodable(message))), "\(label)")
        // Foundation's encoder writes the same JSON, its keys in another order.
        let foundation = try JSONEncoder.contract.encode(message)
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(json)) == JSONDecoder().decode(JSONValue.self, from: foundation), "\(label)")
        let cbor = try CBORCodec.shared.encode(message)
        #expect(cbor == (try CBORCodec.shared.encode(ThroughCodable(message))), "\(label)")
        #expect(try CBORCodec.shared.decode(Message.self, from: cbor) == message, "\(label)")
        let readable = try #require(Message.self as? any JSONReadable.Type, "\(label)")
        #expect(Message.self is any CBORWritable.Type && Message.self is any JSONWritable.Type, "\(label)")
        let read = JSONCodec.read(json) { readable.init(json: &$0) }
        #expect(read as? Message == message, "\(label): the generated reader must read what the writer writes")
    }

    /// Replacement values for the damage: each kind of JSON value, and texts and numbers that
    /// fit some fields and not others.
    static let replacements: [JSONValue] = [
        .null, true, 1, -1, 1.5, 1e300, "x", "2026-02-30T00:00:00Z", "2026-01-23T10:00:00Z", "collapsed", .array([]),
        .array([1, "x"]), .object([:]), .object(["id": 1]),
    ]

    /// `value` with one member or element replaced or removed, at every place in turn.
    static func damaged(_ value: JSONValue) -> [JSONValue] {
        switch value {
        case .object(let members):
            var results: [JSONValue] = []
            for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                var without = members
                without[key] = nil
                results.append(.object(without))
                for replacement in replacements + damaged(member) {
                    var changed = members
                    changed[key] = replacement
                    results.append(.object(changed))
                }
                results.append(.object(members.merging(["unknown\(key)": member]) { $1 }))
            }
            return results
        case .array(let elements) where !elements.isEmpty:
            return [.array(Array(elements.dropFirst()))] + (replacements + damaged(elements[0])).map { .array([$0] + elements.dropFirst()) }
        default:
            return []
        }
    }

    @Test("damaged JSON decodes to the value, or fails with the error, that Foundation's decoder gives")
    func damagedJSON() throws {
        var cases = 0
        try Self.eachSample { type, sample, label in
            cases += try Self.damaged(type, sample, label, codec: JSONCodec.shared) { input in
                let bytes = Array(try JSONEncoder().encode(input))
                return (bytes, String(decoding: bytes, as: UTF8.self))
            }
        }
        #expect(cases > 3_500)
    }

    @Test("damaged CBOR decodes to the value, or fails with the error, that the Codable path gives")
    func damagedCBOR() throws {
        var cases = 0
        try Self.eachSample { type, sample, label in
            cases += try Self.damaged(type, sample, label, codec: CBORCodec.shared) { input in
                let bytes = CBORWriter.encode(JSONCBORBridge.cbor(input))
                return (bytes, CBORReader.diagnostic(bytes))
            }
        }
        #expect(cases > 3_500)
    }

    /// Decodes every damaged copy of `sample`, as `encode` writes it, both ways with `codec`;
    /// answers how many there were.
    private static func damaged<Message: Codable & Hashable>(
        _ type: Message.Type, _ sample: JSONValue, _ label: String, codec: any MessageCodec,
        encode: (JSONValue) throws -> (bytes: [UInt8], text: String)
    ) throws -> Int {
        let inputs = damaged(sample)
        for input in inputs {
            let (bytes, text) = try encode(input)
            let generated = Result { () throws(RPCError) in try codec.decode(Message.self, from: bytes) }
            let codable = Result { () throws(RPCError) in try codec.decode(ThroughCodable<Message>.self, from: bytes).message }
            #expect(generated == codable, "\(label): \(text)")
        }
        return inputs.count
    }
}

extension CBORReader {
    /// `bytes` in diagnostic notation, for a failure's message.
    static func diagnostic(_ bytes: [UInt8]) -> String {
        (try? CBORReader.decode(bytes)).map { "\($0)" } ?? bytes.map { String(format: "%02x", $0) }.joined()
    }
}

extension JSONEncoder {
    /// Writes the contract's JSON as the codec does (RFC 3339 timestamps, slashes unescaped).
    static var contract: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }
}
