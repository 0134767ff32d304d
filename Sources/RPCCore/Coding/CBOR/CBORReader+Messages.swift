import Foundation

// What generated `CBORReadable` conformances read with: a message's map key by key, arrays
// element by element and each scalar as the `Codable` path (`CBORValueDecoder`) reads it, with
// the same checks as `readValue()` on everything (well-formed, valid, bounded, not too deep).

/// Where a reader is in a map: how many entries are left (`nil`: until a break code), which
/// of the message's fields came already, and the other keys met, to refuse a duplicate.
package struct CBORMapCursor {
    var remaining: Int?
    var seen: UInt64 = 0
    var otherKeys: Set<CBORValue> = []

    /// Records the field numbered `index` of the message, refusing it when it came already.
    package mutating func see(_ index: Int, _ key: StaticString) throws(CBORMessageError) {
        let bit: UInt64 = 1 << UInt64(index)
        guard seen & bit == 0 else {
            throw CBORMessageError(.malformed(CBORError(kind: .invalid, message: "a map holds the key \"\(key)\" twice", offset: 0)))
        }
        seen |= bit
    }
}

/// Where a reader is in an array: how many elements are left (`nil`: until a break code).
package struct CBORArrayCursor {
    var remaining: Int?
    /// How many elements to reserve room for: no more than the input can hold.
    package var capacity: Int { remaining ?? 0 }
}

/// A text key of a map, not yet checked to be UTF-8: where its bytes are in the input, or, for
/// a key sent in chunks, that they are the reader's `joinedKey`.
package struct CBORKey {
    let start: Int
    package let count: Int
    var isJoined = false
}

extension CBORReader {
    // MARK: Maps

    /// Starts reading a message's map; a message is always a map.
    package mutating func beginMap() throws(CBORMessageError) -> CBORMapCursor {
        CBORMapCursor(remaining: try beginContainer(.map, minimumBytesEach: 2, expected: "an object"))
    }

    /// The next text key of the map, or `nil` at its end. Entries whose key is not a definite
    /// text string are no field of a message: they are checked and passed over here.
    package mutating func nextKey(_ map: inout CBORMapCursor) throws(CBORMessageError) -> CBORKey? {
        while true {
            if let remaining = map.remaining {
                guard remaining > 0 else {
                    depth -= 1
                    return nil
                }
                map.remaining = remaining - 1
            } else if offset < bytes.count, bytes[offset] == 0xFF {
                offset += 1
                depth -= 1
                return nil
            }
            let start = offset
            if case .item(.text, let length) = try head(expecting: .text) {
                try orMalformed { () throws(CBORError) in try checkLength(length, at: start) }
                let key = CBORKey(start: offset, count: Int(length))
                offset += Int(length)
                return key
            }
            offset = start
            let key = try orMalformed { () throws(CBORError) in try readValue(depth: depth) }
            if case .text(let text) = key {
                joinedKey = Array(text.utf8)
                return CBORKey(start: start, count: joinedKey.count, isJoined: true)
            }
            try passOver(key, at: start, in: &map)
        }
    }

    /// Whether `key` is `name`, byte for byte.
    package func key(_ key: CBORKey, is name: StaticString) -> Bool {
        guard key.count == name.utf8CodeUnitCount else { return false }
        let expected = name.utf8Start
        return (key.isJoined ? joinedKey : bytes).withUnsafeBufferPointer { bytes in
            let start = key.isJoined ? 0 : key.start
            for index in 0..<key.count where bytes[start + index] != expected[index] { return false }
            return true
        }
    }

    /// Checks and passes over the value of a key that is no field of the message.
    package mutating func skipValue(of key: CBORKey, in map: inout CBORMapCursor) throws(CBORMessageError) {
        let utf8 = key.isJoined ? joinedKey : Array(bytes[key.start..<key.start + key.count])
        let text = try orMalformed { () throws(CBORError) in try self.text(utf8, at: key.start) }
        try passOver(.text(text), at: key.start, in: &map)
    }

    private mutating func passOver(_ key: CBORValue, at start: Int, in map: inout CBORMapCursor) throws(CBORMessageError) {
        guard map.otherKeys.insert(key).inserted else {
            throw CBORMessageError(.malformed(error(.invalid, "a map holds the key \(key) twice", at: start)))
        }
        _ = try orMalformed { () throws(CBORError) in try readValue(depth: depth) }
    }

    // MARK: Arrays

    package mutating func beginArray() throws(CBORMessageError) -> CBORArrayCursor {
        CBORArrayCursor(remaining: try beginContainer(.array, minimumBytesEach: 1, expected: "an array"))
    }

    /// Enters the map or array that comes next: how many entries or elements it declares
    /// (which the rest of the input can hold), `nil` for an indefinite length.
    private mutating func beginContainer(
        _ major: CBORMajorType, minimumBytesEach: UInt64, expected: String
    ) throws(CBORMessageError) -> Int? {
        let start = offset
        switch try head(expecting: major) {
        case .item(major, let count):
            try enter(at: start)
            return try orMalformed { () throws(CBORError) in try self.count(count, minimumBytesEach: minimumBytesEach, at: start) }
        case .indefinite(major):
            try enter(at: start)
            return nil
        default:
            offset = start
            throw try mismatch(expected: expected)
        }
    }

    /// Whether another element follows; at the end, leaves the array.
    package mutating func nextElement(_ array: inout CBORArrayCursor) throws(CBORMessageError) -> Bool {
        if let remaining = array.remaining {
            if remaining > 0 {
                array.remaining = remaining - 1
                return true
            }
        } else if offset >= bytes.count || bytes[offset] != 0xFF {
            return true
        } else {
            offset += 1
        }
        depth -= 1
        return false
    }

    /// Every element, read by `element`; an error names the element's index. Inlinable, so
    /// that a message's module reads its arrays without generic metadata at run time.
    @inlinable
    package mutating func readArray<Element>(
        _ element: (inout CBORReader) throws(CBORMessageError) -> Element
    ) throws(CBORMessageError) -> [Element] {
        var array = try beginArray()
        var elements: [Element] = []
        elements.reserveCapacity(array.capacity)
        while try nextElement(&array) {
            do {
                elements.append(try element(&self))
            } catch {
                throw error.asElement.at(elements.count)
            }
        }
        return elements
    }

    // MARK: Scalars

    /// Takes a `null` (or `undefined`) if one comes next, as an optional field's absence.
    package mutating func readNull() -> Bool {
        guard offset < bytes.count, bytes[offset] == 0xF6 || bytes[offset] == 0xF7 else { return false }
        offset += 1
        return true
    }

    package mutating func readString() throws(CBORMessageError) -> String {
        let start = offset
        switch try head(expecting: .text) {
        case .item(.text, let length):
            let text: String? = try withPayload(length: length, itemStart: start) { (utf8: UnsafeBufferPointer<UInt8>) -> String? in String(checkingUTF8: utf8) }
            guard let text else { throw CBORMessageError(.malformed(error(.invalid, "a text string is not UTF-8", at: start))) }
            return text
        case .indefinite(.text):
            guard case .text(let text) = try orMalformed({ () throws(CBORError) in try readIndefinite(.text, depth: depth) }) else {
                fatalError("an indefinite text string reads as text")
            }
            return text
        default:
            offset = start
            throw try mismatch(expected: "a string")
        }
    }

    /// A map read as a free-form JSON object (keys that are not text in diagnostic notation).
    package mutating func readJSONObject() throws(CBORMessageError) -> [String: JSONValue] {
        let start = offset
        let value = try orMalformed { () throws(CBORError) in try readValue(depth: depth) }
        guard case .object(let object) = JSONCBORBridge.json(value) else {
            offset = start
            throw try mismatch(expected: "an object")
        }
        return object
    }

    package mutating func readBool() throws(CBORMessageError) -> Bool {
        let start = offset
        if offset < bytes.count, bytes[offset] | 1 == 0xF5 {
            offset += 1
            return bytes[start] == 0xF5
        }
        if case .simple(.bool(let flag)) = try messageHead() { return flag }
        offset = start
        throw try mismatch(expected: "a boolean")
    }

    package mutating func readInt64() throws(CBORMessageError) -> Int64 {
        let start = offset
        let integer: Int64? =
            switch try head(expecting: .unsigned) {
            case .item(.unsigned, let n): Int64(exactly: n)
            case .item(.negative, let n): Int64(exactly: n).map { -1 - $0 }
            case .simple(.float(let number)): Int64(exactly: number)
            default: nil
            }
        if let integer { return integer }
        offset = start
        throw try mismatch(expected: "an integer")
    }

    package mutating func readInt() throws(CBORMessageError) -> Int {
        Int(try readInt64())
    }

    package mutating func readDouble() throws(CBORMessageError) -> Double {
        let start = offset
        switch try messageHead() {
        case .item(.unsigned, let n): return Double(n)
        case .item(.negative, let n): return -1 - Double(n)
        case .simple(.float(let number)): return number
        default:
            offset = start
            throw try mismatch(expected: "a number")
        }
    }

    /// RFC 3339 text, the same in tag 0, or seconds since 1970 in tag 1.
    package mutating func readDate() throws(CBORMessageError) -> Date {
        let start = offset
        // The form the codec writes, read in place: a definite text of 20 ASCII bytes.
        if offset < bytes.count, bytes[offset] == 0x74 {
            offset += 1
            if let date = try withPayload(length: 20, itemStart: start, { RFC3339.parse(UnsafeRawBufferPointer($0)) }) { return date }
            offset = start
        }
        let isText = offset < bytes.count && bytes[offset] >> 5 == CBORMajorType.text.rawValue
        let value: CBORValue = isText ? .text(try readString()) : try orMalformed { () throws(CBORError) in try readValue(depth: depth) }
        switch value {
        case .text(let text), .tagged(0, .text(let text)):
            if let date = RFC3339.parse(text) ?? (try? Date(text, strategy: .iso8601)) { return date }
            throw CBORMessageError(.invalid("expected an RFC 3339 UTC timestamp"))
        case .tagged(1, let seconds):
            if let seconds = CBORValueDecoder.number(seconds) { return Date(timeIntervalSince1970: seconds) }
        default:
            break
        }
        offset = start
        throw try mismatch(expected: "a string")
    }

    /// One of the values of a string enum; `make` answers `nil` for a value it refuses.
    @inlinable
    package mutating func readEnum<Value>(_ type: Value.Type, _ make: (String) -> Value?) throws(CBORMessageError) -> Value {
        let text = try readString()
        guard let value = make(text) else {
            throw CBORMessageError(.invalid("Cannot initialize \(Value.self) from invalid String value \(text)"))
        }
        return value
    }

    /// The whole input was read.
    package func finish() throws(CBORMessageError) {
        guard isAtEnd else { throw CBORMessageError(.malformed(error(.illFormed, "bytes follow the data item"))) }
    }

    // MARK: Heads

    /// The argument of the next item when it is of `major` type with an argument of at most
    /// two bytes, the usual case, read without the general `readHead()`; `nil` (having read
    /// nothing) for anything else.
    @inline(__always)
    private mutating func shortHead(_ major: CBORMajorType) -> UInt64? {
        guard offset < bytes.count else { return nil }
        let initial = bytes[offset]
        guard initial >> 5 == major.rawValue else { return nil }
        switch initial & 0x1F {
        case let info where info < 24:
            offset += 1
            return UInt64(info)
        case 24 where bytes.count - offset >= 2:
            offset += 2
            return UInt64(bytes[offset - 1])
        case 25 where bytes.count - offset >= 3:
            offset += 3
            return UInt64(bytes[offset - 2]) << 8 | UInt64(bytes[offset - 1])
        default:
            return nil
        }
    }

    /// The next head, read the short way when it is `major`'s, the kind the caller expects.
    private mutating func head(expecting major: CBORMajorType) throws(CBORMessageError) -> Head {
        if let argument = shortHead(major) { return .item(major, argument) }
        return try messageHead()
    }

    /// The next head; a break code where an item should start is ill-formed.
    private mutating func messageHead() throws(CBORMessageError) -> Head {
        let start = offset
        let head = try orMalformed { () throws(CBORError) in try readHead() }
        if case .breakCode = head {
            throw CBORMessageError(.malformed(error(.illFormed, "a break code outside an indefinite-length item", at: start)))
        }
        return head
    }

    /// Calls `body` with the next `length` bytes, which must all be in the input, and moves
    /// past them; `start` is where their item began, for the error.
    private mutating func withPayload<T>(
        length: UInt64, itemStart start: Int, _ body: (UnsafeBufferPointer<UInt8>) -> T
    ) throws(CBORMessageError) -> T {
        try orMalformed { () throws(CBORError) in try checkLength(length, at: start) }
        let from = offset
        offset += Int(length)
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[from..<offset])) }
    }

    private mutating func enter(at start: Int) throws(CBORMessageError) {
        guard depth < maxDepth else { throw CBORMessageError(.malformed(error(.tooDeep, "nested more than \(maxDepth) deep", at: start))) }
        depth += 1
    }

    /// The error for an item that is not what a field needs: `null` named as such, anything
    /// first checked to be well-formed (ill-formed input is refused as such everywhere).
    private mutating func mismatch(expected: String) throws(CBORMessageError) -> CBORMessageError {
        let start = offset
        let value = try orMalformed { () throws(CBORError) in try readValue(depth: depth) }
        offset = start
        if value == .null || value == .undefined { return CBORMessageError(.null(expected: expected)) }
        return CBORMessageError(.wrongType(expected: expected))
    }
}

private func orMalformed<T>(_ body: () throws(CBORError) -> T) throws(CBORMessageError) -> T {
    do {
        return try body()
    } catch {
        throw CBORMessageError(.malformed(error))
    }
}
