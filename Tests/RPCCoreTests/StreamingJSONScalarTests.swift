import Foundation
import Testing

@testable import RPCCore

@Suite("Streaming JSON encoder: scalars byte for byte as Foundation")
struct StreamingJSONScalarTests {
    static let sampleStrings: [String] = [
        "", "plain", "IA Générative", "with \"quotes\"", #"back\slash\\"#, "a/b//c", "https://example.com/17.png",
        "line\nfeed", "tab\tcarriage\r", "\u{8}backspace\u{C}formfeed", "nul\u{0}inside", "\u{1}\u{1F}\u{7F}",
        "emoji 😀👍🏽👨‍👩‍👧", "combining e\u{301} a\u{308}\u{332}", "\u{2028}\u{2029}\u{FEFF}\u{FFFD}", "\u{10FFFF}", "中文 ∑ …",
        String(String.UnicodeScalarView((0..<128).map { Unicode.Scalar(UInt8($0)) })),
    ]

    @Test("strings: quotes, backslashes and control characters escaped; slashes and non-ASCII as they are", arguments: sampleStrings)
    func strings(_ value: String) throws {
        #expect(try ReferenceJSON.streamed(value) == ReferenceJSON.encode(value))
        #expect(try ReferenceJSON.streamed([value, value]) == ReferenceJSON.encode([value, value]))
        #expect(try ReferenceJSON.streamed([value: value]) == ReferenceJSON.encode([value: value]), "as a key")
    }

    @Test("escapes as JSON requires, without looking at Foundation", arguments: [
        ("a/b", #""a/b""#), ("\"\\", #""\"\\""#), ("\n\r\t\u{8}\u{C}", #""\n\r\t\b\f""#), ("\u{0}\u{1F}", #""\u0000\u001f""#),
        ("é😀", "\"é😀\""), ("\u{7F}", "\"\u{7F}\""),
    ])
    func knownEscapes(value: String, json: String) throws {
        #expect(try ReferenceJSON.streamed(value) == Array(json.utf8))
    }

    static let sampleDoubles: [Double] = [
        0, -0.0, 1, -1, 0.1, 0.2, 0.1 + 0.2, 1.5, 100, 1e15, 1e16, 1e21, 1e22, 1e-4, 1e-5, 1e-7, 123_456.789,
        9_007_199_254_740_992, Double(Int64.max), .pi, .ulpOfOne, .leastNonzeroMagnitude, .leastNormalMagnitude,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 2.5e-308, 0.07, 1.7976931348623157e308,
    ]

    @Test("doubles: shortest round-tripping digits, no trailing .0, exponents as Foundation writes them", arguments: sampleDoubles)
    func doubles(_ value: Double) throws {
        let streamed = try ReferenceJSON.streamed(value)
        #expect(streamed == (try ReferenceJSON.encode(value)))
        #expect(try ReferenceJSON.streamed([value]) == ReferenceJSON.encode([value]))
        #expect(try ReferenceJSON.streamed(["x": value]) == ReferenceJSON.encode(["x": value]))
        let parsed = try #require(Double(String(decoding: streamed, as: UTF8.self)))
        #expect(parsed.bitPattern == value.bitPattern, "round trip")
    }

    @Test("floats as Foundation writes them", arguments: [Float(0.1), 1e-7, 3.4e38, 16_777_216, .leastNonzeroMagnitude, -0.0, 1, 2.5])
    func floats(_ value: Float) throws {
        #expect(try ReferenceJSON.streamed(value) == ReferenceJSON.encode(value))
        #expect(try ReferenceJSON.streamed([value]) == ReferenceJSON.encode([value]))
    }

    @Test("integers exact to their extremes")
    func integers() throws {
        #expect(try ReferenceJSON.streamed([Int64.min, Int64.max, 0, -1, 1, 10, 99, 100]) == Array("[-9223372036854775808,9223372036854775807,0,-1,1,10,99,100]".utf8))
        #expect(try ReferenceJSON.streamed([Int.min, Int.max]) == ReferenceJSON.encode([Int.min, Int.max]))
        #expect(try ReferenceJSON.streamed([UInt64.max, 0]) == ReferenceJSON.encode([UInt64.max, 0]))
        #expect(try ReferenceJSON.streamed([Int8.min, Int8.max]) == ReferenceJSON.encode([Int8.min, Int8.max]))
        #expect(try ReferenceJSON.streamed([Int16.min, Int16.max]) == ReferenceJSON.encode([Int16.min, Int16.max]))
        #expect(try ReferenceJSON.streamed([Int32.min, Int32.max]) == ReferenceJSON.encode([Int32.min, Int32.max]))
        #expect(try ReferenceJSON.streamed([UInt8.max, 0]) == ReferenceJSON.encode([UInt8.max, 0]))
        #expect(try ReferenceJSON.streamed([UInt16.max, 0]) == ReferenceJSON.encode([UInt16.max, 0]))
        #expect(try ReferenceJSON.streamed([UInt32.max, 0]) == ReferenceJSON.encode([UInt32.max, 0]))
        #expect(try ReferenceJSON.streamed([UInt.max, 0]) == ReferenceJSON.encode([UInt.max, 0]))
        #expect(try ReferenceJSON.streamed([Int128.min, Int128.max]) == ReferenceJSON.encode([Int128.min, Int128.max]))
        #expect(try ReferenceJSON.streamed([UInt128.max]) == ReferenceJSON.encode([UInt128.max]))
        #expect(try ReferenceJSON.streamed(Int64.min) == ReferenceJSON.encode(Int64.min))
    }

    @Test("Booleans and null")
    func literals() throws {
        #expect(try ReferenceJSON.streamed([true, false]) == Array("[true,false]".utf8))
        #expect(try ReferenceJSON.streamed([1, nil, 3] as [Int?]) == Array("[1,null,3]".utf8))
        #expect(try ReferenceJSON.streamed(Int?.none) == ReferenceJSON.encode(Int?.none))
    }

    @Test("dates as RFC 3339 UTC, Data as base64, URLs as absolute strings, Decimals as numbers")
    func foundationTypes() throws {
        let dates = [0, 1_769_162_400, -1.5, 1_700_000_000.999, 253_402_300_800].map(Date.init(timeIntervalSince1970:))
        #expect(try ReferenceJSON.streamed(dates) == ReferenceJSON.encode(dates))
        #expect(try ReferenceJSON.streamed(dates[1]) == Array(#""2026-01-23T10:00:00Z""#.utf8))
        let data = [Data(), Data([0, 1, 2, 255]), Data("hello/world?".utf8)]
        #expect(try ReferenceJSON.streamed(data) == ReferenceJSON.encode(data))
        let urls = [URL(string: "https://example.com/a%20b?q=1")!, URL(string: "b/c", relativeTo: URL(string: "https://example.com/a/"))!]
        #expect(try ReferenceJSON.streamed(urls) == ReferenceJSON.encode(urls))
        let decimals = ["990.00", "-1.5e3", "0", "123456789012345678901234567890", "0.000001"].map { Decimal(string: $0)! }
        #expect(try ReferenceJSON.streamed(decimals) == ReferenceJSON.encode(decimals))
    }

    struct Measured: Encodable {
        var name = "n"
        var share: Double
        var ratio: Float = 1
    }

    @Test("NaN and infinities throw EncodingError with the value's coding path, as Foundation does", arguments: [Double.nan, .infinity, -.infinity])
    func nonFinite(_ value: Double) throws {
        let error = try #require(throws: EncodingError.self) { try StreamingJSONEncoder().encode(["a": [Measured(share: 0), Measured(share: value)]]) }
        let reference = try #require(throws: EncodingError.self) { try ReferenceJSON.encode(["a": [Measured(share: 0), Measured(share: value)]]) }
        guard case .invalidValue(_, let context) = error, case .invalidValue(_, let referenceContext) = reference else {
            Issue.record("not invalidValue: \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["a", "Index 1", "share"])
        #expect(context.codingPath.map(\.stringValue) == referenceContext.codingPath.map(\.stringValue))
        #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode(value) }
        #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode([value]) }
        #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode(Measured(share: 1, ratio: Float(value))) }
        let codecError = try #require(throws: RPCError.self) { try JSONCodec().encode(Measured(share: value)) }
        #expect(codecError.code == .internalError)
        #expect(codecError.message.contains("cannot encode Measured as JSON"))
    }
}
