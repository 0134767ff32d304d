import Foundation
import RPCCore
import Testing

/// The examples of RFC 8949 Appendix A (`Resources/cbor-appendix-a.json`, from the
/// cbor/test-vectors repository): each decodes to its value, and each that a deterministic
/// encoder writes the same way (`roundtrip`) encodes back to the same bytes.
@Suite("CBOR: RFC 8949 Appendix A")
struct CBORAppendixATests {
    struct Vector: CustomTestStringConvertible, Sendable {
        let hex: String
        let roundtrip: Bool
        /// The `decoded` value as JSON, or the `diagnostic` notation.
        let expected: Expected

        enum Expected: Sendable {
            case json(JSONNode)
            case diagnostic(String)
        }

        var testDescription: String { hex }
        var bytes: [UInt8] {
            stride(from: 0, to: hex.count, by: 2).map { offset in
                let start = hex.index(hex.startIndex, offsetBy: offset)
                return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
            }
        }
    }

    /// A JSON value, numbers kept as Foundation read them.
    enum JSONNode: Sendable {
        case number(Double, exactInteger: String?)
        case bool(Bool)
        case string(String)
        case array([JSONNode])
        case object([String: JSONNode])
        case null

        init(_ any: Any) {
            switch any {
            case is NSNull: self = .null
            case let string as String: self = .string(string)
            case let array as [Any]: self = .array(array.map(JSONNode.init))
            case let object as [String: Any]: self = .object(object.mapValues(JSONNode.init))
            case let number as NSNumber:
                if type(of: number) == type(of: NSNumber(value: true)), number === NSNumber(value: true) || number === NSNumber(value: false) {
                    self = .bool(number.boolValue)
                } else {
                    let text = number.stringValue
                    self = .number(number.doubleValue, exactInteger: text.allSatisfy { $0.isNumber || $0 == "-" } ? text : nil)
                }
            default: self = .null
            }
        }
    }

    static let vectors: [Vector] = {
        guard let url = Bundle.module.url(forResource: "cbor-appendix-a", withExtension: "json"),
            let data = try? Data(contentsOf: url),
            let list = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? [[String: Any]]
        else { return [] }
        return list.compactMap { entry in
            guard let hex = entry["hex"] as? String, let roundtrip = entry["roundtrip"] as? Bool else { return nil }
            if let diagnostic = entry["diagnostic"] as? String {
                return Vector(hex: hex, roundtrip: roundtrip, expected: .diagnostic(diagnostic))
            }
            return Vector(hex: hex, roundtrip: roundtrip, expected: .json(JSONNode(entry["decoded"] as Any)))
        }
    }()

    @Test("the file holds all 82 examples")
    func loaded() {
        #expect(Self.vectors.count == 82)
    }

    /// `f818`, simple(24) in two bytes: RFC 7049 listed it, RFC 8949 §3.3 made it not
    /// well-formed (a simple value below 32 has its one-byte form only).
    static let retired = "f818"

    @Test("each example decodes to its value", arguments: vectors.filter { $0.hex != retired })
    func decodes(_ vector: Vector) throws {
        let value = try CBORReader.decode(vector.bytes)
        switch vector.expected {
        case .diagnostic(let diagnostic):
            // A generic decoder joins the chunks of an indefinite-length string.
            let joined = diagnostic == "(_ h'0102', h'030405')" ? "h'0102030405'" : diagnostic
            #expect(value.description == joined)
        case .json(let json):
            #expect(Self.matches(value, json), "\(value)")
        }
    }

    @Test("simple(24) in two bytes, which RFC 8949 retired, is ill-formed")
    func retiredSimpleValue() {
        let error = #expect(throws: CBORError.self) { try CBORReader.decode([0xF8, 0x18]) }
        #expect(error?.kind == .illFormed)
    }

    @Test(
        "each example a deterministic encoder writes as given encodes back to its bytes",
        arguments: vectors.filter { $0.roundtrip && $0.hex != retired })
    func encodes(_ vector: Vector) throws {
        #expect(CBORWriter.encode(try CBORReader.decode(vector.bytes)) == vector.bytes)
    }

    @Test("every example re-encodes to a form that decodes and encodes to itself", arguments: vectors.filter { $0.hex != retired })
    func reencodes(_ vector: Vector) throws {
        let encoded = CBORWriter.encode(try CBORReader.decode(vector.bytes))
        #expect(CBORWriter.encode(try CBORReader.decode(encoded)) == encoded)
    }

    static func matches(_ value: CBORValue, _ json: JSONNode) -> Bool {
        switch (value, json) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.text(let a), .string(let b)): return a == b
        case (.array(let items), .array(let nodes)):
            return items.count == nodes.count && zip(items, nodes).allSatisfy { matches($0, $1) }
        case (.map(let entries), .object(let object)):
            return entries.count == object.count && entries.allSatisfy { entry in
                guard case .text(let key) = entry.key, let node = object[key] else { return false }
                return matches(entry.value, node)
            }
        case (.unsigned(let n), .number(let double, let exact)):
            return exact.map { $0 == String(n) } ?? (Double(n) == double)
        case (.negative, .number(let double, let exact)):
            return exact.map { $0 == value.description } ?? (Double(value.description) == double)
        case (.tagged(let tag, .bytes(let magnitude)), .number(let double, _)) where tag == 2 || tag == 3:
            let unsigned = magnitude.reduce(0.0) { $0 * 256 + Double($1) }
            return (tag == 2 ? unsigned : -1 - unsigned) == double
        case (.float(let a), .number(let b, _)):
            // Foundation may read a long decimal one unit in the last place off.
            return a.sign == b.sign && (a == b || (a - b).magnitude <= b.ulp)
        default:
            return false
        }
    }
}
