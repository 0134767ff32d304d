import Foundation

/// A message that writes its own JSON, without `Codable`'s dynamic call and type checks for
/// every field. Generated from the message's description.
///
/// The JSON codec uses it for a message it encodes at the top level; everywhere else the
/// message's `Encodable` conformance is used, so the two must write the same JSON (same keys,
/// same order, absent optionals left out).
package protocol JSONWritable: Encodable {
    func writeJSON(to writer: inout JSONWriter)
}

/// Writes JSON straight into the codec's buffer: objects, arrays, keys and values, with the
/// commas between them and scalars exactly as the codec's `Encodable` path writes them.
package struct JSONWriter: ~Copyable {
    var output: ByteOutput

    init(capacity: Int) {
        output = ByteOutput(capacity: capacity)
    }

    package mutating func beginObject() {
        separate()
        output.append(UInt8(ascii: "{"))
    }

    package mutating func endObject() {
        output.append(UInt8(ascii: "}"))
    }

    package mutating func beginArray() {
        separate()
        output.append(UInt8(ascii: "["))
    }

    package mutating func endArray() {
        output.append(UInt8(ascii: "]"))
    }

    /// Writes the key of the next member of the current object; its value follows.
    package mutating func key(_ name: StaticString) {
        separate()
        output.append(UInt8(ascii: "\""))
        output.append(name)
        output.append("\":")
    }

    // MARK: Values of array elements, or of members after `key(_:)`

    package mutating func value(_ string: String) {
        separate()
        output.appendString(string)
    }

    package mutating func value(_ integer: some FixedWidthInteger) {
        separate()
        output.appendInteger(integer)
    }

    package mutating func value(_ bool: Bool) {
        separate()
        output.append(bool ? "true" : "false")
    }

    package mutating func value(_ date: Date) {
        separate()
        output.appendDate(date)
    }

    /// A finite number; a NaN or infinity, which JSON cannot hold, is written as `null` (where
    /// the `Encodable` path would fail the whole message).
    package mutating func value(_ number: Double) {
        separate()
        if number.isFinite { output.appendNumber(number) } else { output.append("null") }
    }

    package mutating func null() {
        separate()
        output.append("null")
    }

    /// A free-form object, its members in key order: JSON's values as `JSONValue` encodes them.
    package mutating func value(object: [String: JSONValue]) {
        beginObject()
        for (key, member) in object.sorted(by: { $0.key < $1.key }) {
            separate()
            output.appendString(key)
            output.append(UInt8(ascii: ":"))
            value(json: member)
        }
        endObject()
    }

    private mutating func value(json: JSONValue) {
        switch json {
        case .null: null()
        case .bool(let flag): value(flag)
        case .integer(let integer): value(integer)
        case .number(let number):
            if number.rounded() == number, let integer = Int64(exactly: number) { value(integer) } else { value(number) }
        case .string(let text): value(text)
        case .array(let items):
            beginArray()
            for item in items { value(json: item) }
            endArray()
        case .object(let members): value(object: members)
        }
    }

    /// A comma unless this is the first member or element, or a value after its key.
    private mutating func separate() {
        guard let last = output.last, last != UInt8(ascii: "{"), last != UInt8(ascii: "["), last != UInt8(ascii: ":")
        else { return }
        output.append(UInt8(ascii: ","))
    }
}
