import Foundation

/// Reads a `Decodable` from a decoded CBOR value: maps keyed by text (other keys ignored),
/// integers within the asked type's range, a date from RFC 3339 text or a tag 0 or 1.
struct CBORValueDecoder: Decoder {
    let value: CBORValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    static func decode<T: Decodable>(_ type: T.Type, from value: CBORValue, codingPath: [any CodingKey]) throws -> T {
        switch type {
        case is Date.Type: return try date(value, codingPath: codingPath) as! T
        case is Data.Type:
            guard case .bytes(let bytes) = value else { throw mismatch(type, value, codingPath) }
            return Data(bytes) as! T
        default: return try T(from: CBORValueDecoder(value: value, codingPath: codingPath))
        }
    }

    private static func date(_ value: CBORValue, codingPath: [any CodingKey]) throws -> Date {
        switch value {
        case .text(let text), .tagged(0, .text(let text)):
            guard let date = try? Date(text, strategy: .iso8601) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "expected an RFC 3339 UTC timestamp"))
            }
            return date
        case .tagged(1, let seconds):
            guard let number = number(seconds) else { throw mismatch(Date.self, value, codingPath) }
            return Date(timeIntervalSince1970: number)
        default:
            throw mismatch(Date.self, value, codingPath)
        }
    }

    static func number(_ value: CBORValue) -> Double? {
        switch value {
        case .unsigned(let n): Double(n)
        case .negative(let n): -1 - Double(n)
        case .float(let number): number
        default: nil
        }
    }

    static func mismatch(_ type: Any.Type, _ value: CBORValue, _ codingPath: [any CodingKey]) -> DecodingError {
        DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "found \(value)"))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .map(let entries) = value else { throw Self.mismatch([String: Any].self, value, codingPath) }
        var byKey: [String: CBORValue] = [:]
        for entry in entries {
            if case .text(let key) = entry.key { byKey[key] = entry.value }
        }
        return KeyedDecodingContainer(KeyedContainer<Key>(entries: byKey, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw Self.mismatch([Any].self, value, codingPath) }
        return UnkeyedContainer(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(value: value, codingPath: codingPath)
    }

    // MARK: Scalars

    static func decodeScalar<T: Decodable>(_ type: T.Type, _ value: CBORValue, codingPath: [any CodingKey]) throws -> T {
        switch type {
        case is String.Type:
            guard case .text(let text) = value else { throw mismatch(type, value, codingPath) }
            return text as! T
        case is Bool.Type:
            guard case .bool(let flag) = value else { throw mismatch(type, value, codingPath) }
            return flag as! T
        case is Double.Type:
            guard let number = number(value) else { throw mismatch(type, value, codingPath) }
            return number as! T
        case is Float.Type:
            guard let number = number(value) else { throw mismatch(type, value, codingPath) }
            return Float(number) as! T
        case let integer as any FixedWidthInteger.Type:
            return try Self.integer(integer, value, codingPath: codingPath) as! T
        default:
            return try decode(type, from: value, codingPath: codingPath)
        }
    }

    private static func integer<I: FixedWidthInteger>(_ type: I.Type, _ value: CBORValue, codingPath: [any CodingKey]) throws -> I {
        let converted: I? =
            switch value {
            case .unsigned(let n): I(exactly: n)
            case .negative(let n): Int64(exactly: n).flatMap { I(exactly: -1 - $0) }
            case .float(let number): I(exactly: number)
            default: nil
            }
        guard let converted else { throw mismatch(type, value, codingPath) }
        return converted
    }

    private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let entries: [String: CBORValue]
        let codingPath: [any CodingKey]

        var allKeys: [Key] { entries.keys.compactMap(Key.init(stringValue:)) }

        func contains(_ key: Key) -> Bool { entries[key.stringValue] != nil }

        private func value(_ key: Key) throws -> CBORValue {
            guard let value = entries[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "absent"))
            }
            return value
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            switch try value(key) {
            case .null, .undefined: true
            default: false
            }
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let value = try value(key)
            // `null` is a value of free-form JSON, and absent from every other type.
            if value == .null || value == .undefined, !(type is JSONValue.Type) {
                throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [key], debugDescription: "null"))
            }
            return try CBORValueDecoder.decodeScalar(type, value, codingPath: codingPath + [key])
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try CBORValueDecoder(value: value(key), codingPath: codingPath + [key]).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try CBORValueDecoder(value: value(key), codingPath: codingPath + [key]).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            CBORValueDecoder(value: entries["super"] ?? .null, codingPath: codingPath)
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            CBORValueDecoder(value: entries[key.stringValue] ?? .null, codingPath: codingPath + [key])
        }
    }

    private struct UnkeyedContainer: UnkeyedDecodingContainer {
        let items: [CBORValue]
        let codingPath: [any CodingKey]
        var currentIndex = 0

        init(items: [CBORValue], codingPath: [any CodingKey]) {
            self.items = items
            self.codingPath = codingPath
        }

        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        private mutating func next(_ type: Any.Type) throws -> (CBORValue, [any CodingKey]) {
            let path = codingPath + [IndexKey(currentIndex)]
            guard !isAtEnd else { throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "the array ends")) }
            defer { currentIndex += 1 }
            return (items[currentIndex], path)
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, items[currentIndex] == .null || items[currentIndex] == .undefined else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let (value, path) = try next(type)
            return try CBORValueDecoder.decodeScalar(type, value, codingPath: path)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            let (value, path) = try next([String: Any].self)
            return try CBORValueDecoder(value: value, codingPath: path).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let (value, path) = try next([Any].self)
            return try CBORValueDecoder(value: value, codingPath: path).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder {
            let (value, path) = try next(Any.self)
            return CBORValueDecoder(value: value, codingPath: path)
        }
    }

    private struct SingleValueContainer: SingleValueDecodingContainer {
        let value: CBORValue
        let codingPath: [any CodingKey]

        func decodeNil() -> Bool { value == .null || value == .undefined }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try CBORValueDecoder.decodeScalar(type, value, codingPath: codingPath)
        }
    }
}
