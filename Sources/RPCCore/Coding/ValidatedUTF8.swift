import Foundation

extension String {
    /// `utf8` as a string when it is valid UTF-8, else `nil`. Unlike the standard library's
    /// generic `String(validating:as:)`, whose every call looks up generic metadata at run
    /// time (a tenth of the time of reading a CBOR message), it decodes ASCII directly and
    /// checks anything else by comparing the decoded bytes, in which an invalid sequence
    /// would have been replaced, with the input.
    init?(checkingUTF8 utf8: UnsafeBufferPointer<UInt8>) {
        var high: UInt8 = 0
        for byte in utf8 { high |= byte }
        var text = String(decoding: utf8, as: UTF8.self)
        guard high >= 0x80 else {
            self = text
            return
        }
        let same = text.withUTF8 { decoded in decoded.count == utf8.count && memcmp(decoded.baseAddress!, utf8.baseAddress!, utf8.count) == 0 }
        guard same else { return nil }
        self = text
    }
}
