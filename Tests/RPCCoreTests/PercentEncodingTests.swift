import RPCCore
import Testing
import TestSupport

@Suite("PercentEncoding")
struct PercentEncodingTests {
    @Test("keeps printable ASCII other than '%' as it is")
    func printableASCII() {
        let printable = String(decoding: (0x20...0x7E).filter { $0 != UInt8(ascii: "%") }, as: UTF8.self)
        #expect(PercentEncoding.encode(printable) == printable)
        #expect(PercentEncoding.decode(printable) == printable)
    }

    @Test("encodes characters as uppercase %XX of their UTF-8 bytes", arguments: [
        ("%", "%25"),
        ("100%", "100%25"),
        ("é", "%C3%A9"),
        ("Générative ✓", "G%C3%A9n%C3%A9rative %E2%9C%93"),
        ("line\nbreak\ttab", "line%0Abreak%09tab"),
        ("\u{7F}", "%7F"),
        ("\u{0}", "%00"),
        ("🙂", "%F0%9F%99%82"),
        ("", ""),
    ])
    func encode(text: String, encoded: String) {
        #expect(PercentEncoding.encode(text) == encoded)
        #expect(PercentEncoding.decode(encoded) == text)
    }

    @Test("decodes lowercase hex digits too")
    func lowercaseHex() {
        #expect(PercentEncoding.decode("G%c3%a9n%c3%a9rative %e2%9c%93") == "Générative ✓")
    }

    @Test("keeps malformed escapes as they are", arguments: [
        ("%", "%"), ("%4", "%4"), ("a%", "a%"), ("50%", "50%"), ("%zz", "%zz"), ("%G1", "%G1"),
        ("%1G", "%1G"), ("%%", "%%"), ("x%4", "x%4"),
        ("%%41x", "%Ax"),  // the first '%' is kept, the well-formed escape after it decoded
    ])
    func malformedEscapes(text: String, decoded: String) {
        #expect(PercentEncoding.decode(text) == decoded)
    }

    @Test("round-trips random Unicode text", arguments: 0..<32 as Range<UInt64>)
    func randomRoundTrip(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var text = ""
        for _ in 0..<rng.int(in: 0...40) {
            // ASCII (including '%' and controls), Latin, CJK and emoji scalars.
            let ranges: [ClosedRange<UInt32>] = [0x00...0x7F, 0xA0...0x17F, 0x4E00...0x9FFF, 0x1F300...0x1F64F]
            let range = ranges[rng.int(in: 0...ranges.count - 1)]
            let scalar = Unicode.Scalar(UInt32.random(in: range, using: &rng))!
            text.unicodeScalars.append(scalar)
        }
        let encoded = PercentEncoding.encode(text)
        #expect(encoded.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }, "the encoding is printable ASCII only")
        #expect(PercentEncoding.decode(encoded) == text)
    }
}
