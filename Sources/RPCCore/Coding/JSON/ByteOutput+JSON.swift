import Foundation

/// JSON scalars in UTF-8, byte for byte as Foundation's `JSONEncoder` writes them with
/// `.withoutEscapingSlashes`.
extension ByteOutput {
    /// Appends `string` in quotes, escaping `"`, `\` and the control characters U+0000 to U+001F
    /// (`\b \t \n \f \r` in their short forms, the others as `\u00xx`); everything else, `/` and
    /// non-ASCII included, is copied as it is.
    mutating func appendString(_ string: String) {
        append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                append(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                appendEscape(of: byte)
                runStart = index + 1
            }
            append(UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        append(UInt8(ascii: "\""))
    }

    private mutating func appendEscape(of byte: UInt8) {
        append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): append(byte)
        case 0x08: append(UInt8(ascii: "b"))
        case 0x09: append(UInt8(ascii: "t"))
        case 0x0A: append(UInt8(ascii: "n"))
        case 0x0C: append(UInt8(ascii: "f"))
        case 0x0D: append(UInt8(ascii: "r"))
        default:
            let hexDigits: StaticString = "0123456789abcdef"
            append("u00")
            append(hexDigits.utf8Start[Int(byte >> 4)])
            append(hexDigits.utf8Start[Int(byte & 0xF)])
        }
    }

    /// Appends an integer in decimal.
    mutating func appendInteger<Integer: FixedWidthInteger>(_ value: Integer) {
        guard Integer.bitWidth <= 64 else {
            append(contentsOf: value.description)
            return
        }
        if value < 0 { append(UInt8(ascii: "-")) }
        var rest = UInt64(truncatingIfNeeded: value.magnitude)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest != 0
            append(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Appends a finite floating-point number as Foundation does: its shortest round-tripping
    /// `description` without a trailing `.0` (`1`, `0.1`, `1e-07`, `1e+21`, `-0`).
    mutating func appendNumber<Float: BinaryFloatingPoint & CustomStringConvertible>(_ value: Float) {
        let text = value.description
        append(contentsOf: text.hasSuffix(".0") ? text.dropLast(2) : text[...])
    }

    /// Appends `date` as an RFC 3339 string.
    mutating func appendDate(_ date: Date) {
        append(UInt8(ascii: "\""))
        RFC3339.withUTF8(of: date) { append($0) }
        append(UInt8(ascii: "\""))
    }
}
