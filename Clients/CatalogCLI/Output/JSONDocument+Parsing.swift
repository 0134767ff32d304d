extension JSONDocument {
    /// A parse failure: what was expected, and where.
    package struct ParseError: Error, CustomStringConvertible {
        /// The byte offset of the problem.
        package var offset: Int
        package var reason: String

        package var description: String { "\(reason) at byte \(offset)" }
    }

    /// Parses RFC 8259 JSON (UTF-8), keeping key order and number text.
    ///
    /// - Throws: ``ParseError`` for anything that is not exactly one JSON value, possibly
    ///   surrounded by white space, or that nests more than 512 levels deep.
    package init(parsing bytes: [UInt8]) throws(ParseError) {
        var parser = Parser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the JSON value") }
        self = value
    }
}

/// A recursive-descent JSON parser over UTF-8 bytes.
private struct Parser {
    let bytes: [UInt8]
    var index = 0
    static let maxDepth = 512

    init(bytes: [UInt8]) { self.bytes = bytes }

    func error(_ reason: String) -> JSONDocument.ParseError {
        JSONDocument.ParseError(offset: index, reason: reason)
    }

    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func parseValue(depth: Int) throws(JSONDocument.ParseError) -> JSONDocument {
        guard depth < Self.maxDepth else { throw error("nested too deeply") }
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character")
        }
    }

    mutating func expectWord(_ word: String) throws(JSONDocument.ParseError) {
        for byte in word.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw error("expected '\(word)'") }
            index += 1
        }
    }

    mutating func parseObject(depth: Int) throws(JSONDocument.ParseError) -> JSONDocument {
        index += 1
        var members: [JSONDocument.Member] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            members.append(JSONDocument.Member(key, try parseValue(depth: depth + 1)))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in an object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            } else {
                throw error("expected ',' or '}'")
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONDocument.ParseError) -> JSONDocument {
        index += 1
        var elements: [JSONDocument] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in an array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            } else {
                throw error("expected ',' or ']'")
            }
        }
    }

    mutating func parseNumber() throws(JSONDocument.ParseError) -> String {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit after '.'") }
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected an exponent") }
            skipDigits()
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    mutating func parseString() throws(JSONDocument.ParseError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flushRun() {
            scalars.append(contentsOf: String(decoding: bytes[runStart..<index], as: UTF8.self).unicodeScalars)
        }
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                flushRun()
                index += 1
                return String(scalars)
            } else if byte == UInt8(ascii: "\\") {
                flushRun()
                index += 1
                scalars.append(try parseEscape())
                runStart = index
            } else if byte < 0x20 {
                throw error("control character in a string")
            } else {
                index += 1
            }
        }
    }

    mutating func parseEscape() throws(JSONDocument.ParseError) -> Unicode.Scalar {
        guard index < bytes.count else { throw error("unterminated escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHex4()
            if (0xD800...0xDBFF).contains(high) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("unpaired surrogate")
                }
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low),
                    let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                else { throw error("invalid surrogate pair") }
                return scalar
            }
            guard let scalar = Unicode.Scalar(high) else { throw error("unpaired surrogate") }
            return scalar
        default:
            throw error("invalid escape")
        }
    }

    mutating func parseHex4() throws(JSONDocument.ParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("expected four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = hexValue(bytes[index]) else { throw error("expected a hex digit") }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
