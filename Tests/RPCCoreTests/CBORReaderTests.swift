import RPCCore
import Testing

/// Input that is not one well-formed, valid CBOR data item (RFC 8949 §5.3), or that asks for
/// more than it holds, is refused with the kind of fault and where it is.
@Suite("CBOR: what the reader refuses")
struct CBORReaderTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        let kind: CBORError.Kind
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "empty input", bytes: [], kind: .truncated),
        Case(name: "an argument cut short", bytes: [0x19, 0x01], kind: .truncated),
        Case(name: "a text string shorter than declared", bytes: [0x63, 0x61, 0x62], kind: .truncated),
        Case(name: "a byte string declaring 2^64 - 1 bytes", bytes: [0x5B] + Array(repeating: 0xFF, count: 8), kind: .truncated),
        Case(name: "an array declaring 2^64 - 1 items", bytes: [0x9B] + Array(repeating: 0xFF, count: 8), kind: .truncated),
        Case(name: "a map declaring more entries than bytes", bytes: [0xA3, 0x01, 0x02], kind: .truncated),
        Case(name: "an indefinite array without its break", bytes: [0x9F, 0x01], kind: .truncated),
        Case(name: "reserved additional information 28", bytes: [0x1C], kind: .illFormed),
        Case(name: "reserved additional information 30 on a float", bytes: [0xFE], kind: .illFormed),
        Case(name: "a break outside an indefinite item", bytes: [0xFF], kind: .illFormed),
        Case(name: "an indefinite-length integer", bytes: [0x1F], kind: .illFormed),
        Case(name: "an indefinite-length tag", bytes: [0xDF, 0x01], kind: .illFormed),
        Case(name: "a byte chunk in an indefinite text string", bytes: [0x7F, 0x41, 0x61, 0xFF], kind: .illFormed),
        Case(name: "an indefinite chunk in an indefinite string", bytes: [0x5F, 0x5F, 0xFF, 0xFF], kind: .illFormed),
        Case(name: "a break where a map value belongs", bytes: [0xBF, 0x01, 0xFF], kind: .illFormed),
        Case(name: "bytes after the item", bytes: [0x01, 0x02], kind: .illFormed),
        Case(name: "a text string that is not UTF-8", bytes: [0x62, 0xC3, 0x28], kind: .invalid),
        Case(name: "a text chunk that is not UTF-8", bytes: [0x7F, 0x61, 0xC3, 0x61, 0xA9, 0xFF], kind: .invalid),
        Case(name: "a duplicate map key", bytes: [0xA2, 0x61, 0x61, 0x01, 0x61, 0x61, 0x02], kind: .invalid),
        Case(name: "tag 0 on an integer", bytes: [0xC0, 0x01], kind: .invalid),
        Case(name: "tag 1 on a text string", bytes: [0xC1, 0x61, 0x61], kind: .invalid),
        Case(name: "tag 2 on an integer", bytes: [0xC2, 0x01], kind: .invalid),
        Case(name: "arrays nested 65 deep", bytes: Array(repeating: 0x81, count: 65) + [0x01], kind: .tooDeep),
        Case(name: "indefinite maps nested 65 deep", bytes: Array(repeating: 0xBF, count: 65), kind: .tooDeep),
    ]

    @Test("refused, with the kind of fault", arguments: cases)
    func refused(_ testCase: Case) {
        let error = #expect(throws: CBORError.self) { try CBORReader.decode(testCase.bytes) }
        #expect(error?.kind == testCase.kind, "\(String(describing: error))")
    }

    @Test("nesting up to the limit is read")
    func nestingAtTheLimit() throws {
        let value = try CBORReader.decode(Array(repeating: 0x81, count: 64) + [0x01])
        var depth = 0
        var current = value
        while case .array(let items) = current, let first = items.first {
            depth += 1
            current = first
        }
        #expect(depth == 64 && current == .unsigned(1))
    }

    @Test("indefinite-length items read as their definite equals; tags 0 and 1 keep their content")
    func indefiniteAndTimestamps() throws {
        #expect(try CBORReader.decode([0x7F, 0x62, 0x61, 0x62, 0x61, 0x63, 0xFF]) == .text("abc"))
        #expect(try CBORReader.decode([0xBF, 0x61, 0x61, 0x9F, 0xFF, 0xFF]) == .map([CBORMapEntry(.text("a"), .array([]))]))
        let rfc3339 = Array("2026-11-26T05:00:00Z".utf8)
        #expect(try CBORReader.decode([0xC0, 0x74] + rfc3339) == .tagged(0, .text("2026-11-26T05:00:00Z")))
        #expect(try CBORReader.decode([0xC1, 0xFB, 0x41, 0xD4, 0x52, 0xD9, 0xEC, 0x20, 0x00, 0x00]) == .tagged(1, .float(1363896240.5)))
    }
}

@Suite("CBOR: the deterministic writer")
struct CBORWriterTests {
    static func hex(_ value: CBORValue) -> String {
        CBORWriter.encode(value).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test("integers and lengths take the shortest argument")
    func shortestArguments() {
        #expect(Self.hex(.unsigned(23)) == "17")
        #expect(Self.hex(.unsigned(24)) == "1818")
        #expect(Self.hex(.unsigned(255)) == "18ff")
        #expect(Self.hex(.unsigned(256)) == "190100")
        #expect(Self.hex(.unsigned(65_536)) == "1a00010000")
        #expect(Self.hex(.unsigned(1 << 32)) == "1b0000000100000000")
        #expect(Self.hex(.integer(-24)) == "37")
        #expect(Self.hex(.integer(-25)) == "3818")
        #expect(Self.hex(.integer(.min)) == "3b7fffffffffffffff")
        #expect(Self.hex(.text(String(repeating: "a", count: 24))).hasPrefix("7818"))
    }

    @Test("floats take the shortest width that keeps the value")
    func shortestFloats() {
        #expect(Self.hex(.float(0)) == "f90000")
        #expect(Self.hex(.float(-0.0)) == "f98000")
        #expect(Self.hex(.float(1.5)) == "f93e00")
        #expect(Self.hex(.float(65504)) == "f97bff")
        #expect(Self.hex(.float(5.960464477539063e-8)) == "f90001")
        #expect(Self.hex(.float(100_000)) == "fa47c35000")
        #expect(Self.hex(.float(1.1)) == "fb3ff199999999999a")
        #expect(Self.hex(.float(.nan)) == "f97e00")
        #expect(Self.hex(.float(-.infinity)) == "f9fc00")
    }

    @Test("map keys are written in the bytewise order of their encodings, whatever order they came in")
    func sortedKeys() {
        let map = CBORValue.map([
            CBORMapEntry(.text("aa"), .unsigned(1)), CBORMapEntry(.unsigned(100), .unsigned(2)),
            CBORMapEntry(.text("b"), .unsigned(3)), CBORMapEntry(.unsigned(10), .unsigned(4)),
        ])
        // 0a < 1864 < 6162 < 626161: shorter encodings of the same type first.
        #expect(Self.hex(map) == "a40a04186402616203626161" + "01")
    }
}
