/// Reads CBOR data items from bytes, checking that they are well-formed and valid (RFC 8949
/// §5.3) and that nothing asks for more than the input holds: a length or a count past the
/// end of the input fails before anything is allocated for it.
package struct CBORReader {
    /// The most nested arrays, maps and tags accepted, by default.
    package static let defaultMaxDepth = 64

    let bytes: [UInt8]
    /// Where the next item starts.
    package internal(set) var offset: Int
    let maxDepth: Int
    /// How deep the map or array being read by a message's reader is nested.
    var depth = 0
    /// The last map key that came in chunks, joined (`CBORKey.isJoined`).
    var joinedKey: [UInt8] = []

    package init(_ bytes: [UInt8], maxDepth: Int = CBORReader.defaultMaxDepth) {
        self.bytes = bytes
        self.offset = 0
        self.maxDepth = maxDepth
    }

    /// Whether every byte was read.
    package var isAtEnd: Bool { offset == bytes.count }

    /// `bytes` as exactly one data item.
    package static func decode(_ bytes: [UInt8], maxDepth: Int = CBORReader.defaultMaxDepth) throws(CBORError) -> CBORValue {
        var reader = CBORReader(bytes, maxDepth: maxDepth)
        let value = try reader.readValue()
        guard reader.isAtEnd else { throw reader.error(.illFormed, "bytes follow the data item") }
        return value
    }

    // MARK: Items

    /// The next data item.
    package mutating func readValue() throws(CBORError) -> CBORValue {
        try readValue(depth: 0)
    }

    mutating func readValue(depth: Int) throws(CBORError) -> CBORValue {
        guard let value = try readValueOrBreak(depth: depth) else { throw error(.illFormed, "a break code outside an indefinite-length item", back: 1) }
        return value
    }

    /// The next data item, or `nil` for a break code.
    private mutating func readValueOrBreak(depth: Int) throws(CBORError) -> CBORValue? {
        let start = offset
        let head = try readHead()
        switch head {
        case .breakCode:
            return nil
        case .indefinite(let major):
            guard depth < maxDepth else { throw error(.tooDeep, "nested more than \(maxDepth) deep", at: start) }
            return try readIndefinite(major, depth: depth)
        case .item(let major, let argument):
            switch major {
            case .unsigned: return .unsigned(argument)
            case .negative: return .negative(argument)
            case .bytes: return .bytes(try readPayload(length: argument, at: start))
            case .text: return .text(try text(try readPayload(length: argument, at: start), at: start))
            case .array:
                guard depth < maxDepth else { throw error(.tooDeep, "nested more than \(maxDepth) deep", at: start) }
                let count = try count(argument, minimumBytesEach: 1, at: start)
                var items: [CBORValue] = []
                items.reserveCapacity(count)
                for _ in 0..<count { items.append(try readValue(depth: depth + 1)) }
                return .array(items)
            case .map:
                guard depth < maxDepth else { throw error(.tooDeep, "nested more than \(maxDepth) deep", at: start) }
                let count = try count(argument, minimumBytesEach: 2, at: start)
                var entries = MapBuilder(capacity: count)
                for _ in 0..<count {
                    let keyStart = offset
                    let key = try readValue(depth: depth + 1)
                    try entries.add(key, try readValue(depth: depth + 1), reader: self, at: keyStart)
                }
                return .map(entries.entries)
            case .tag:
                guard depth < maxDepth else { throw error(.tooDeep, "nested more than \(maxDepth) deep", at: start) }
                let content = try readValue(depth: depth + 1)
                try checkTag(argument, content, at: start)
                return .tagged(argument, content)
            case .simpleOrFloat:
                throw error(.illFormed, "no such simple value", at: start)  // heads of major 7 come as .simple
            }
        case .simple(let value):
            return value
        }
    }

    mutating func readIndefinite(_ major: CBORMajorType, depth: Int) throws(CBORError) -> CBORValue {
        switch major {
        case .bytes, .text:
            var joined: [UInt8] = []
            while true {
                let chunkStart = offset
                let head = try readHead()
                if case .breakCode = head { break }
                guard case .item(let chunkMajor, let length) = head, chunkMajor == major else {
                    throw error(.illFormed, "a chunk of an indefinite-length string is not a definite string of its type", at: chunkStart)
                }
                let chunk = try readPayload(length: length, at: chunkStart)
                if major == .text { _ = try text(chunk, at: chunkStart) }
                joined += chunk
            }
            return major == .bytes ? .bytes(joined) : .text(String(decoding: joined, as: UTF8.self))
        case .array:
            var items: [CBORValue] = []
            while let item = try readValueOrBreak(depth: depth + 1) { items.append(item) }
            return .array(items)
        case .map:
            var entries = MapBuilder(capacity: 0)
            while true {
                let keyStart = offset
                guard let key = try readValueOrBreak(depth: depth + 1) else { break }
                try entries.add(key, try readValue(depth: depth + 1), reader: self, at: keyStart)
            }
            return .map(entries.entries)
        default:
            throw error(.illFormed, "major type \(major.rawValue) has no indefinite length", back: 1)
        }
    }

    /// A map's entries, refusing a key met before.
    private struct MapBuilder {
        var entries: [CBORMapEntry] = []
        var keys: Set<CBORValue> = []

        init(capacity: Int) {
            entries.reserveCapacity(capacity)
        }

        mutating func add(_ key: CBORValue, _ value: CBORValue, reader: CBORReader, at offset: Int) throws(CBORError) {
            guard keys.insert(key).inserted else { throw reader.error(.invalid, "a map holds the key \(key) twice", at: offset) }
            entries.append(CBORMapEntry(key, value))
        }
    }

    private func checkTag(_ tag: UInt64, _ content: CBORValue, at start: Int) throws(CBORError) {
        let fits: Bool =
            switch (tag, content) {
            case (0, .text): true
            case (0, _): false
            case (1, .unsigned), (1, .negative), (1, .float): true
            case (1, _): false
            case (2, .bytes), (3, .bytes): true
            case (2, _), (3, _): false
            default: true
            }
        guard fits else { throw error(.invalid, "tag \(tag) cannot enclose \(content)", at: start) }
    }

    // MARK: Heads

    /// An initial byte and its argument.
    enum Head {
        case item(CBORMajorType, UInt64)
        case indefinite(CBORMajorType)
        case breakCode
        /// Major type 7 but the break: false, true, null, undefined, simple values and floats.
        case simple(CBORValue)
    }

    mutating func readHead() throws(CBORError) -> Head {
        let start = offset
        guard offset < bytes.count else { throw error(.truncated, "the input ends where an item should start") }
        let initial = bytes[offset]
        offset += 1
        let major = CBORMajorType(rawValue: initial >> 5)!
        let info = initial & 0x1F
        if major == .simpleOrFloat {
            switch info {
            case 20: return .simple(.bool(false))
            case 21: return .simple(.bool(true))
            case 22: return .simple(.null)
            case 23: return .simple(.undefined)
            case 24:
                let value = UInt8(try readArgument(bytes: 1))
                guard value >= 32 else { throw error(.illFormed, "simple value \(value) in two bytes", at: start) }
                return .simple(.simple(value))
            case 25: return .simple(.float(CBORFloat.double(halfBits: UInt16(try readArgument(bytes: 2)))))
            case 26: return .simple(.float(Double(Float(bitPattern: UInt32(try readArgument(bytes: 4))))))
            case 27: return .simple(.float(Double(bitPattern: try readArgument(bytes: 8))))
            case 28...30: throw error(.illFormed, "reserved additional information \(info)", at: start)
            case 31: return .breakCode
            default: return .simple(.simple(info))
            }
        }
        switch info {
        case 0..<24: return .item(major, UInt64(info))
        case 24: return .item(major, try readArgument(bytes: 1))
        case 25: return .item(major, try readArgument(bytes: 2))
        case 26: return .item(major, try readArgument(bytes: 4))
        case 27: return .item(major, try readArgument(bytes: 8))
        case 31:
            switch major {
            case .bytes, .text, .array, .map: return .indefinite(major)
            default: throw error(.illFormed, "major type \(major.rawValue) has no indefinite length", at: start)
            }
        default: throw error(.illFormed, "reserved additional information \(info)", at: start)
        }
    }

    private mutating func readArgument(bytes count: Int) throws(CBORError) -> UInt64 {
        guard bytes.count - offset >= count else { throw error(.truncated, "the input ends inside an argument") }
        var value: UInt64 = 0
        for byte in bytes[offset..<offset + count] { value = value << 8 | UInt64(byte) }
        offset += count
        return value
    }

    /// The `length` bytes of a string, which must all be in the input.
    mutating func readPayload(length: UInt64, at start: Int) throws(CBORError) -> [UInt8] {
        try checkLength(length, at: start)
        let payload = Array(bytes[offset..<offset + Int(length)])
        offset += Int(length)
        return payload
    }

    /// Refuses a string of `length` bytes from here that would run past the end of the input.
    func checkLength(_ length: UInt64, at start: Int) throws(CBORError) {
        guard length <= UInt64(bytes.count - offset) else {
            throw error(.truncated, "a string of \(length) bytes runs past the end of the input", at: start)
        }
    }

    /// A declared number of items, each at least `minimumBytesEach` bytes, that the rest of
    /// the input can hold.
    func count(_ declared: UInt64, minimumBytesEach: UInt64, at start: Int) throws(CBORError) -> Int {
        let remaining = UInt64(bytes.count - offset)
        guard declared <= remaining / minimumBytesEach else {
            throw error(.truncated, "\(declared) items cannot fit in the \(remaining) bytes left", at: start)
        }
        return Int(declared)
    }

    func text(_ utf8: [UInt8], at start: Int) throws(CBORError) -> String {
        guard let text = utf8.withUnsafeBufferPointer({ (utf8: UnsafeBufferPointer<UInt8>) -> String? in String(checkingUTF8: utf8) }) else { throw error(.invalid, "a text string is not UTF-8", at: start) }
        return text
    }

    func error(_ kind: CBORError.Kind, _ message: String, at position: Int? = nil, back: Int = 0) -> CBORError {
        CBORError(kind: kind, message: message, offset: position ?? (offset - back))
    }
}
