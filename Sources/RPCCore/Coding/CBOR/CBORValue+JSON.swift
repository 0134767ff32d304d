import Foundation

/// JSON text and CBOR values, each read as the other: for tools that speak JSON to a
/// connection that carries CBOR (raw calls).
package enum JSONCBORBridge {
    /// The CBOR of a JSON message (`{}` when empty): integral numbers as integers.
    package static func cbor(fromJSON json: [UInt8]) throws(RPCError) -> [UInt8] {
        let value: JSONValue
        if JSONNesting.exceeds(JSONNesting.foundationLimit, in: json) {
            throw RPCError(.invalidArgument, "the request is not JSON: it nests deeper than \(JSONNesting.foundationLimit) levels")
        }
        do {
            value = json.isEmpty ? .object([:]) : try JSONDecoder().decode(JSONValue.self, from: Data(json))
        } catch {
            throw RPCError(.invalidArgument, "the request is not JSON: \(error)")
        }
        return CBORWriter.encode(cbor(value))
    }

    /// The JSON of a CBOR message, keys sorted: byte strings as base64, tags as their content,
    /// keys that are not text in diagnostic notation.
    package static func json(fromCBOR bytes: [UInt8]) throws(RPCError) -> [UInt8] {
        let value: CBORValue
        do {
            value = bytes.isEmpty ? .map([]) : try CBORReader.decode(bytes)
        } catch {
            throw RPCError(.internalError, "the response is not valid CBOR: \(error)")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? Array(encoder.encode(json(value)))) ?? Array("null".utf8)
    }

    static func cbor(_ value: JSONValue) -> CBORValue {
        switch value {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .integer(let integer): .integer(integer)
        case .number(let number):
            if let integer = Int64(exactly: number) { .integer(integer) } else { .float(number) }
        case .string(let text): .text(text)
        case .array(let items): .array(items.map(cbor))
        case .object(let members): .map(members.map { CBORMapEntry(.text($0.key), cbor($0.value)) })
        }
    }

    static func json(_ value: CBORValue) -> JSONValue {
        switch value {
        case .unsigned(let n): Int64(exactly: n).map(JSONValue.integer) ?? .integer(Int64(n))
        case .negative(let n): n < UInt64(Int64.max) ? .integer(-1 - Int64(n)) : .number(-1 - Double(n))
        case .float(let number): .number(number)
        case .bytes(let data): .string(Data(data).base64EncodedString())
        case .text(let text): .string(text)
        case .array(let items): .array(items.map(json))
        case .map(let entries):
            .object(Dictionary(entries.map { entry -> (String, JSONValue) in
                if case .text(let key) = entry.key { return (key, json(entry.value)) }
                return (entry.key.description, json(entry.value))
            }, uniquingKeysWith: { first, _ in first }))
        case .tagged(_, let content): json(content)
        case .bool(let flag): .bool(flag)
        case .null, .undefined, .simple: .null
        }
    }
}
