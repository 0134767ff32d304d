import Foundation

/// A message that reads its usual JSON itself, without `Codable`: Foundation's decoder costs
/// more than the rest of a point read's call. Generated from the message's description.
///
/// `init?(json:)` reads the plain form (an object of the expected members, no escapes, no
/// `null` but for a field update, timestamps as the codec writes them) and returns `nil` for
/// anything else; the codec then decodes through `Decodable`, which also words the errors. It
/// must never accept JSON that `Decodable` would reject, nor read it differently.
package protocol JSONReadable: Decodable {
    init?(json reader: inout JSONReader)
}

/// A strict reader of JSON objects: members whose keys and strings need no escapes, integers in
/// their shortest form, numbers, booleans, arrays and nested objects. Every read returns `nil`
/// (or `false`) at anything else.
package struct JSONReader: ~Copyable {
    private let bytes: UnsafeRawBufferPointer
    private var index = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Reads an object: `member` gets each key and must read its value; it returns `false` to
    /// give up. Returns whether the object was read to its end.
    package mutating func readObject(_ member: (inout JSONReader, String) -> Bool) -> Bool {
        guard consume(UInt8(ascii: "{")) else { return false }
        if !consume(UInt8(ascii: "}")) {
            repeat {
                guard let key = string(), consume(UInt8(ascii: ":")), member(&self, key) else { return false }
            } while consume(UInt8(ascii: ","))
            guard consume(UInt8(ascii: "}")) else { return false }
        }
        return true
    }

    /// A free-form object of the plain form: strings without escapes, integers in their
    /// shortest form, booleans, `null`, arrays and objects with distinct keys. Anything else
    /// (a fraction, an exponent, an escape) is left to `Decodable`.
    package mutating func jsonObject() -> [String: JSONValue]? {
        var members: [String: JSONValue] = [:]
        let read = readObject { reader, key in
            guard members[key] == nil, let value = reader.jsonValue() else { return false }
            members[key] = value
            return true
        }
        return read ? members : nil
    }

    private mutating func jsonValue() -> JSONValue? {
        skipWhitespace()
        switch peek {
        case UInt8(ascii: "{"): return jsonObject().map(JSONValue.object)
        case UInt8(ascii: "["): return array { $0.jsonValue() }.map(JSONValue.array)
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return bool().map(JSONValue.bool)
        case UInt8(ascii: "n"): return null() ? .null : nil
        default: return int64().map(JSONValue.integer)
        }
    }

    /// Reads an array, each element with `element`; `nil` when one of them gives up.
    package mutating func array<Element>(_ element: (inout JSONReader) -> Element?) -> [Element]? {
        guard consume(UInt8(ascii: "[")) else { return nil }
        var elements: [Element] = []
        if !consume(UInt8(ascii: "]")) {
            repeat {
                guard let value = element(&self) else { return nil }
                elements.append(value)
            } while consume(UInt8(ascii: ","))
            guard consume(UInt8(ascii: "]")) else { return nil }
        }
        return elements
    }

    /// Whether nothing but whitespace is left.
    package mutating func isAtEnd() -> Bool {
        skipWhitespace()
        return index == bytes.count
    }

    /// Takes `null` if it comes next.
    package mutating func null() -> Bool {
        skipWhitespace()
        guard matches("null") else { return false }
        index += 4
        return true
    }

    /// An integer without fraction, exponent, leading zeros or minus zero, that fits.
    package mutating func int64() -> Int64? {
        skipWhitespace()
        let negative = peek == UInt8(ascii: "-")
        if negative { index += 1 }
        let start = index
        var magnitude: UInt64 = 0
        while let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            magnitude = sum
            index += 1
        }
        let digits = index - start
        guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        if let byte = peek, byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { return nil }
        if negative {
            guard magnitude != 0, magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return Int64(truncatingIfNeeded: 0 &- magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    /// `true` or `false`.
    package mutating func bool() -> Bool? {
        skipWhitespace()
        if matches("true") {
            index += 4
            return true
        }
        if matches("false") {
            index += 5
            return false
        }
        return nil
    }

    /// A string without escapes or control characters, in valid UTF-8.
    package mutating func string() -> String? {
        guard let utf8 = stringBytes() else { return nil }
        return utf8.isASCII ? String(decoding: utf8.bytes, as: UTF8.self) : String(checkingUTF8: utf8.bytes.assumingMemoryBound(to: UInt8.self))
    }

    /// A number, as `Double(_:)` reads its text (which is how Foundation's decoder reads it):
    /// JSON's number grammar, finite.
    package mutating func double() -> Double? {
        skipWhitespace()
        let start = index
        if peek == UInt8(ascii: "-") { index += 1 }
        guard let first = peek, isDigit(first) else { return nil }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek == UInt8(ascii: ".") {
            index += 1
            guard let byte = peek, isDigit(byte) else { return nil }
            skipDigits()
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard let byte = peek, isDigit(byte) else { return nil }
            skipDigits()
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let number = Double(text), number.isFinite else { return nil }
        return number
    }

    /// A timestamp exactly as the codec writes it (`2026-01-23T10:00:00Z`).
    package mutating func date() -> Date? {
        guard let utf8 = stringBytes() else { return nil }
        return RFC3339.parse(utf8.bytes)
    }

    /// The bytes between the quotes of a string without escapes or control characters.
    private mutating func stringBytes() -> (bytes: UnsafeRawBufferPointer, isASCII: Bool)? {
        skipWhitespace()
        guard consume(UInt8(ascii: "\"")) else { return nil }
        let start = index
        var high: UInt8 = 0
        while let byte = peek, byte != UInt8(ascii: "\"") {
            guard byte >= 0x20, byte != UInt8(ascii: "\\") else { return nil }
            high |= byte
            index += 1
        }
        guard index < bytes.count else { return nil }
        index += 1
        return (UnsafeRawBufferPointer(rebasing: bytes[start..<index - 1]), high < 0x80)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while let byte = peek, isDigit(byte) { index += 1 }
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Whether the bytes from `index` on begin with `literal`.
    private func matches(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        return literal.withUTF8Buffer { literal in
            literal.indices.allSatisfy { bytes[index + $0] == literal[$0] }
        }
    }

    /// Skips whitespace, then takes `byte` if it comes next.
    private mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard peek == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }
}
