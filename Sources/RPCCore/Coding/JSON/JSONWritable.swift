import Foundation

/// A message that writes its own JSON, for the long lists whose encoding through `Codable`
/// (a dynamic call and type checks for every field) is most of their call's time.
///
/// The JSON codec uses it for a message it encodes at the top level; everywhere else the
/// message's `Encodable` conformance is used, so the two must write the same JSON (same keys,
/// same order, absent optionals left out).
package protocol JSONWritable: Encodable {
    func writeJSON(to writer: inout JSONWriter)
}

/// Writes JSON straight into the codec's buffer: objects, arrays of objects and members, with
/// the commas between them and scalars exactly as the codec's `Encodable` path writes them.
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

    /// A member with a string value.
    package mutating func member(_ name: StaticString, _ string: String) {
        key(name)
        value(string)
    }

    /// A member left out when `string` is nil, as `Codable` leaves out an absent optional.
    package mutating func member(_ name: StaticString, _ string: String?) {
        guard let string else { return }
        member(name, string)
    }

    package mutating func member(_ name: StaticString, _ integer: some FixedWidthInteger) {
        key(name)
        value(integer)
    }

    /// A member left out when `integer` is nil.
    package mutating func member(_ name: StaticString, _ integer: (some FixedWidthInteger)?) {
        guard let integer else { return }
        member(name, integer)
    }

    package mutating func member(_ name: StaticString, _ bool: Bool) {
        key(name)
        value(bool)
    }

    /// A member left out when `bool` is nil.
    package mutating func member(_ name: StaticString, _ bool: Bool?) {
        guard let bool else { return }
        member(name, bool)
    }

    /// A member with an RFC 3339 date, as the codec writes every `Date`.
    package mutating func member(_ name: StaticString, _ date: Date) {
        key(name)
        value(date)
    }

    /// A member left out when `date` is nil.
    package mutating func member(_ name: StaticString, _ date: Date?) {
        guard let date else { return }
        member(name, date)
    }

    package mutating func member(_ name: StaticString, _ number: Double) {
        key(name)
        value(number)
    }

    /// A member left out when `number` is nil.
    package mutating func member(_ name: StaticString, _ number: Double?) {
        guard let number else { return }
        member(name, number)
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

    /// A comma unless this is the first member or element, or a value after its key.
    private mutating func separate() {
        guard let last = output.last, last != UInt8(ascii: "{"), last != UInt8(ascii: "["), last != UInt8(ascii: ":")
        else { return }
        output.append(UInt8(ascii: ","))
    }
}
