/// RFC 8949 §8 diagnostic notation: `{"a": [1, h'0102'], 1(1363896240)}`.
extension CBORValue: CustomStringConvertible {
    package var description: String {
        switch self {
        case .unsigned(let n): return String(n)
        case .negative(let n): return n < UInt64(Int64.max) ? String(-1 - Int64(n)) : "-" + Self.decimalSuccessor(of: n)
        case .bytes(let data): return "h'" + data.map { Self.hexDigits[Int($0 >> 4)] + Self.hexDigits[Int($0 & 0xF)] }.joined() + "'"
        case .text(let text): return Self.quoted(text)
        case .array(let items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .map(let entries): return "{" + entries.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        case .tagged(let tag, let content): return "\(tag)(\(content))"
        case .simple(let value): return "simple(\(value))"
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .undefined: return "undefined"
        case .float(let number):
            if number.isNaN { return "NaN" }
            if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
            return "\(number)"
        }
    }

    private static let hexDigits = (0..<16).map { String($0, radix: 16) }

    /// `n + 1` in decimal, for n up to 2⁶⁴ − 1.
    private static func decimalSuccessor(of n: UInt64) -> String {
        let (sum, overflow) = n.addingReportingOverflow(1)
        return overflow ? "18446744073709551616" : String(sum)
    }

    private static func quoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            case "\r": quoted += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    quoted += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "\""
    }
}
