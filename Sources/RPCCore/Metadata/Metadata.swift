/// Call metadata: HTTP/2 headers or trailers that are not part of the protocol itself.
///
/// Keys are lower-case. Keys ending in `-bin` carry binary values, sent base64-encoded.
///
/// ```swift
/// var metadata: Metadata = ["x-request-id": "42"]
/// metadata.add("trace-bin", .binary([1, 2, 3]))
/// ```
public struct Metadata: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// A metadata value: text, or bytes for `-bin` keys.
    public enum Value: Sendable, Hashable, ExpressibleByStringLiteral {
        /// A text value (keys not ending in `-bin`).
        case string(String)
        /// Bytes, sent base64-encoded (keys ending in `-bin`).
        case binary([UInt8])

        public init(stringLiteral value: String) { self = .string(value) }

        /// The value as text; binary values are `nil`.
        public var stringValue: String? {
            if case .string(let value) = self { return value }
            return nil
        }

        /// The value as bytes; text values are their UTF-8.
        public var bytes: [UInt8] {
            switch self {
            case .string(let value): Array(value.utf8)
            case .binary(let value): value
            }
        }
    }

    /// One key and value.
    public struct Entry: Sendable, Hashable {
        /// The key, in lower case.
        public var key: String
        /// The value.
        public var value: Value
    }

    /// Every key and value, in order.
    public private(set) var entries: [Entry] = []

    /// No metadata.
    public init() {}

    public init(dictionaryLiteral elements: (String, Value)...) {
        for (key, value) in elements {
            if case .string(let text) = value { add(key, text) } else { add(key, value) }
        }
    }

    /// Appends a text value (a key ending in `-bin` stores its UTF-8 bytes).
    public mutating func add(_ key: String, _ value: String) {
        let key = Self.lowercased(key)
        entries.append(Entry(key: key, value: Self.isBinary(key) ? .binary(Array(value.utf8)) : .string(value)))
    }

    /// Metadata of entries taken from other metadata as they are (their keys are lower case already).
    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// Appends an entry of other metadata as it is (its key is lower case already).
    public mutating func append(_ entry: Entry) {
        entries.append(entry)
    }

    /// Appends a value.
    public mutating func add(_ key: String, _ value: Value) {
        entries.append(Entry(key: Self.lowercased(key), value: value))
    }

    /// Replaces every value of `key` with one value.
    public mutating func replace(_ key: String, _ value: Value) {
        remove(key)
        add(key, value)
    }

    /// Removes every value of `key`.
    public mutating func remove(_ key: String) {
        let key = Self.lowercased(key)
        entries.removeAll { $0.key == key }
    }

    /// Every value of `key`, in order.
    public subscript(key: String) -> [Value] {
        let key = Self.lowercased(key)
        return entries.filter { $0.key == key }.map(\.value)
    }

    /// The first text value of `key`.
    public func first(_ key: String) -> String? {
        self[key].lazy.compactMap(\.stringValue).first
    }

    /// The first binary value of `key`.
    public func firstBinary(_ key: String) -> [UInt8]? {
        self[key].first?.bytes
    }

    /// `key` in lower case. Most keys already are (HTTP/2 field names always): a key of ASCII
    /// without upper-case letters is returned as it is.
    private static func lowercased(_ key: String) -> String {
        key.utf8.contains { ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || $0 >= 0x80 } ? key.lowercased() : key
    }

    /// Whether values of `key` are binary: it ends in `-bin`.
    static func isBinary(_ key: String) -> Bool {
        key.utf8.count >= 4 && key.utf8.suffix(4).elementsEqual("-bin".utf8)
    }

    /// Whether there is no entry.
    public var isEmpty: Bool { entries.isEmpty }
    /// The number of entries, a key with several values counting once per value.
    public var count: Int { entries.count }
}

extension Metadata: Sequence {
    public func makeIterator() -> IndexingIterator<[Entry]> { entries.makeIterator() }
}

extension Metadata {
    /// Header names that belong to the protocol and never appear as user metadata.
    package static func isReserved(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { isReserved(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// `isReserved(_:)` for a name's UTF-8 bytes, as a transport receives them.
    // Byte comparisons: `String.hasPrefix` compares by Unicode equivalence, which cost more
    // than the rest of a request's metadata.
    package static func isReserved(utf8 name: UnsafeRawBufferPointer) -> Bool {
        func bytes(_ literal: StaticString) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        }
        func `is`(_ literal: StaticString) -> Bool { name.elementsEqual(bytes(literal)) }
        if name.first == UInt8(ascii: ":") || name.starts(with: bytes("grpc-")) { return true }
        // By length first: most names are compared with one literal, or none.
        switch name.count {
        case 2: return `is`("te")
        case 4: return `is`("host")
        case 7: return `is`("upgrade")
        case 10: return `is`("connection") || `is`("keep-alive")
        case 12: return `is`("content-type")
        case 14: return `is`("content-length")
        case 16: return `is`("proxy-connection")
        case 17: return `is`("transfer-encoding")
        default: return false
        }
    }

    /// Builds metadata from received header fields, skipping reserved ones and
    /// base64-decoding `-bin` values. A `-bin` value that is not base64 is kept as its text bytes.
    package init(headerFields: some Sequence<(name: String, value: String)>) {
        entries.reserveCapacity(headerFields.underestimatedCount)
        for (name, value) in headerFields { addReceived(name, value) }
    }

    /// Adds one received header field as `init(headerFields:)` does: nothing when the name is
    /// reserved, a base64-decoded value for a `-bin` name.
    package mutating func addReceived(_ name: String, _ value: String) {
        guard !Self.isReserved(name) else { return }
        if Self.isBinary(name) {
            add(name, .binary(Base64.decode(value) ?? Array(value.utf8)))
        } else {
            add(name, .string(value))
        }
    }

    /// The header fields for this metadata, `-bin` values base64-encoded without padding.
    package var headerFields: [(name: String, value: String)] {
        entries.map { entry in
            switch entry.value {
            case .string(let value): (entry.key, value)
            case .binary(let value): (entry.key, Base64.encode(value))
            }
        }
    }
}
