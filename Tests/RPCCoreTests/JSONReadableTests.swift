import CatalogAPI
import Foundation
import Testing

@testable import RPCCore

/// The requests that read their own JSON (`JSONReadable`) must decode exactly as Foundation's
/// decoder does: the same value, or an error where it fails.
@Suite("Requests read without Codable")
struct JSONReadableTests {
    /// What `IDRequest` and `HealthCheckRequest` read themselves.
    static let plainForms = [
        #"{"id":42}"#, #" { "id" : -7 }"#, "{\"id\":\n0\t}\r\n", #"{"id":9223372036854775807}"#, #"{"id":-9223372036854775808}"#,
        #"{}"#, #"{"service":""}"#, #"{"service":"catalog.v1.Catalog"}"#,
    ]

    static let keys = [#""id""#, #""service""#, #""other""#, #""i\u0064""#, #""""#]
    static let values = [
        "0", "-0", "042", "42", "-1", "4.2", "1e2", "42.0", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "-9223372036854775809", "18446744073709551616", #""x""#, #""""#, #""a\"b""#, #""é""#,
        "\"tab\t\"", "null", "true", "[]", "{}",
    ]
    /// Anything a mutation may put in: JSON's punctuation and forms the reader must refuse.
    static let tokens = keys + values + ["{", "}", "[", "]", ":", ",", " ", "\n", "\"unterminated", "-", "\u{FEFF}"]

    /// An object of 0 to 2 members, then 0 to 2 random tokens replaced, inserted or removed.
    static func randomInput(_ generator: inout some RandomNumberGenerator) -> String {
        var parts = ["{"]
        for index in 0..<Int.random(in: 0...2, using: &generator) {
            if index > 0 { parts.append(",") }
            parts += [keys.randomElement(using: &generator)!, ":", values.randomElement(using: &generator)!]
        }
        parts.append("}")
        for _ in 0..<[0, 0, 1, 2].randomElement(using: &generator)! {
            let position = Int.random(in: 0..<parts.count, using: &generator)
            switch Int.random(in: 0...2, using: &generator) {
            case 0: parts[position] = tokens.randomElement(using: &generator)!
            case 1: parts.insert(tokens.randomElement(using: &generator)!, at: position)
            default: parts.remove(at: position)
            }
            if parts.isEmpty { break }
        }
        return parts.joined(separator: Bool.random(using: &generator) ? "" : " ")
    }

    @Test("the plain forms are read directly, to the values Foundation decodes")
    func plainForms() throws {
        for text in Self.plainForms {
            let bytes = Array(text.utf8)
            if text.contains("id") {
                #expect(read(IDRequest.self, bytes) == (try JSONDecoder().decode(IDRequest.self, from: Data(bytes))), "\(text)")
            } else {
                let expected = try JSONDecoder().decode(HealthCheckRequest.self, from: Data(bytes))
                #expect(read(HealthCheckRequest.self, bytes) == expected, "\(text)")
            }
        }
    }

    @Test("anything else is left to Foundation: unknown keys, escapes, fractions, duplicates, nulls")
    func otherForms() {
        let others = [
            #"{"id":42,"other":1}"#, #"{"i\u0064":42}"#, #"{"id":4.2e1}"#, #"{"id":042}"#, #"{"id":-0}"#, #"{"id":1,"id":2}"#,
            #"{"id":null}"#, #"{"id":"42"}"#, #"{"id":9223372036854775808}"#, #"{"service":null}"#, #"{"service":"caf\u00e9"}"#,
            #"{"service":"café"}"#, #"{"id":42}x"#, #"{"id":42,}"#, "", "[]",
        ]
        for text in others {
            #expect(read(IDRequest.self, Array(text.utf8)) == nil, "\(text)")
            #expect(read(HealthCheckRequest.self, Array(text.utf8)) == nil, "\(text)")
        }
    }

    @Test("for random inputs the codec and a route's decoder decode what Foundation decodes, and fail where it fails")
    func randomInputs() {
        var generator = SplitMix64(seed: 0x5EED_1D)
        var readDirectly = 0
        let routeDecoder = RequestDecoder<IDRequest>()
        #expect(routeDecoder.readsJSONItself)
        #expect(RequestDecoder<HealthCheckRequest>().readsJSONItself)
        #expect(!RequestDecoder<ListItemsRequest>().readsJSONItself)
        for _ in 0..<20_000 {
            let text = Self.randomInput(&generator)
            let bytes = Array(text.utf8)
            if read(IDRequest.self, bytes) != nil || read(HealthCheckRequest.self, bytes) != nil { readDirectly += 1 }
            let foundation = try? JSONDecoder().decode(IDRequest.self, from: Data(bytes.isEmpty ? Array("{}".utf8) : bytes))
            #expect((try? JSONCodec.shared.decode(IDRequest.self, from: bytes)) == foundation, "\(text)")
            #expect((try? routeDecoder.decode(bytes, with: JSONCodec.shared)) == foundation, "\(text)")
            #expect(
                (try? JSONCodec.shared.decode(HealthCheckRequest.self, from: bytes))
                    == (try? JSONDecoder().decode(HealthCheckRequest.self, from: Data(bytes.isEmpty ? Array("{}".utf8) : bytes))),
                "\(text)")
        }
        #expect(readDirectly > 100, "the inputs must exercise the direct reader too, not only Foundation")
    }

    /// The message as it reads itself; `nil` when it leaves `bytes` to Foundation.
    private func read<Message: JSONReadable>(_ type: Message.Type, _ bytes: [UInt8]) -> Message? {
        bytes.withUnsafeBytes { bytes in
            var reader = JSONReader(bytes)
            return Message(json: &reader)
        }
    }
}
