/// JSON text rewritten with the members of every object sorted by their key, and every string
/// and number kept byte for byte. Two encoders' outputs have the same canonical form exactly
/// when they differ at most in the order of object members.
enum CanonicalJSON {
    struct Malformed: Error, CustomStringConvertible {
        let offset: Int
        var description: String { "malformed JSON at byte \(offset)" }
    }

    /// The canonical form of `bytes`, which must be one JSON value without white space (as both
    /// encoders write it).
    static func canonical(_ bytes: [UInt8]) throws -> String {
        var parser = Parser(bytes: bytes)
        let value = try parser.value()
        guard parser.offset == bytes.count else { throw Malformed(offset: parser.offset) }
        return String(decoding: value, as: UTF8.self)
    }

    /// The keys of the top-level object, in the order they were written.
    static func topLevelKeys(_ bytes: [UInt8]) throws -> [String] {
        var parser = Parser(bytes: bytes)
        return try parser.object().map { String(decoding: $0.key.dropFirst().dropLast(), as: UTF8.self) }
    }

    private struct Parser {
        let bytes: [UInt8]
        var offset = 0

        mutating func value() throws -> [UInt8] {
            switch peek() {
            case UInt8(ascii: "{"):
                let members = try object().sorted { $0.key.lexicographicallyPrecedes($1.key) }
                let joined = members.map { $0.key + [UInt8(ascii: ":")] + $0.value }.joined(separator: [UInt8(ascii: ",")])
                return [UInt8(ascii: "{")] + joined + [UInt8(ascii: "}")]
            case UInt8(ascii: "["):
                offset += 1
                var elements: [[UInt8]] = []
                if peek() != UInt8(ascii: "]") {
                    repeat { elements.append(try value()) } while try consumeComma(before: UInt8(ascii: "]"))
                }
                try expect(UInt8(ascii: "]"))
                return [UInt8(ascii: "[")] + elements.joined(separator: [UInt8(ascii: ",")]) + [UInt8(ascii: "]")]
            case UInt8(ascii: "\""):
                return try string()
            default:
                let start = offset
                while offset < bytes.count, !",]}:".utf8.contains(bytes[offset]) { offset += 1 }
                guard offset > start else { throw Malformed(offset: start) }
                return Array(bytes[start..<offset])
            }
        }

        /// The members of an object, each key with its quotes, in the order written.
        mutating func object() throws -> [(key: [UInt8], value: [UInt8])] {
            try expect(UInt8(ascii: "{"))
            var members: [(key: [UInt8], value: [UInt8])] = []
            if peek() != UInt8(ascii: "}") {
                repeat {
                    let key = try string()
                    try expect(UInt8(ascii: ":"))
                    members.append((key, try value()))
                } while try consumeComma(before: UInt8(ascii: "}"))
            }
            try expect(UInt8(ascii: "}"))
            return members
        }

        /// A string token as written, quotes included.
        mutating func string() throws -> [UInt8] {
            let start = offset
            try expect(UInt8(ascii: "\""))
            while offset < bytes.count, bytes[offset] != UInt8(ascii: "\"") {
                offset += bytes[offset] == UInt8(ascii: "\\") ? 2 : 1
            }
            try expect(UInt8(ascii: "\""))
            return Array(bytes[start..<offset])
        }

        /// Consumes a comma, or sees `closer` next.
        mutating func consumeComma(before closer: UInt8) throws -> Bool {
            if peek() == UInt8(ascii: ",") {
                offset += 1
                return true
            }
            guard peek() == closer else { throw Malformed(offset: offset) }
            return false
        }

        mutating func expect(_ byte: UInt8) throws {
            guard peek() == byte else { throw Malformed(offset: offset) }
            offset += 1
        }

        func peek() -> UInt8? {
            offset < bytes.count ? bytes[offset] : nil
        }
    }
}
