import CatalogAPI
import Foundation
import Testing

@testable import RPCCore
import TestSupport

/// The requests that read their own JSON (`JSONReadable`) must decode exactly as Foundation's
/// decoder does: the same value, or an error where it fails.
@Suite("Requests read without Codable")
struct JSONReadableTests {
    /// What `IDRequest` and `HealthCheckRequest` read themselves.
    static let plainForms = [
        #"{"id":42}"#, #" { "id" : -7 }"#, "{\"id\":\n0\t}\r\n", #"{"id":9223372036854775807}"#, #"{"id":-9223372036854775808}"#,
        #"{}"#, #"{"service":""}"#, #"{"service":"catalog.v1.Catalog"}"#, #"{"service":"café"}"#,
    ]

    /// What the Filters requests read themselves.
    static let plainFilterForms = [
        #"{"filterId":"bench"}"#, #"{"filterId":"bench","optionId":3,"toggle":false}"#, #"{"toggle":true,"filterId":"f"}"#,
        #" { "optionId" : -1 , "filterId" : "x" } "#, #"{"filterId":"f","presentation":"collapsed"}"#,
        #"{"presentation":"expanded","filterId":"f"}"#,
    ]

    static let keys = [
        #""id""#, #""service""#, #""other""#, #""i\u0064""#, #""""#, #""filterId""#, #""optionId""#, #""toggle""#,
        #""presentation""#,
    ]
    static let values = [
        "0", "-0", "042", "42", "-1", "4.2", "1e2", "42.0", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "-9223372036854775809", "18446744073709551616", #""x""#, #""""#, #""a\"b""#, #""é""#,
        "\"tab\t\"", "null", "true", "false", "tru", "falsey", "True", "[]", "{}", #""expanded""#, #""collapsed""#,
        #""Expanded""#,
    ]
    /// Anything a mutation may put in: JSON's punctuation and forms the reader must refuse.
    static let tokens = keys + values + ["{", "}", "[", "]", ":", ",", " ", "\n", "\"unterminated", "-", "\u{FEFF}"]

    /// An object of 0 to 3 members, then 0 to 2 random tokens replaced, inserted or removed.
    static func randomInput(_ generator: inout some RandomNumberGenerator) -> String {
        var parts = ["{"]
        for index in 0..<Int.random(in: 0...3, using: &generator) {
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

    @Test("the Filters requests' plain forms are read directly, to the values Foundation decodes")
    func plainFilterForms() throws {
        for text in Self.plainFilterForms {
            let bytes = Array(text.utf8)
            if text.contains("presentation") {
                let expected = try JSONDecoder().decode(SetPresentationRequest.self, from: Data(bytes))
                #expect(read(SetPresentationRequest.self, bytes) == expected, "\(text)")
            } else {
                let expected = try JSONDecoder().decode(SelectFilterRequest.self, from: Data(bytes))
                #expect(read(SelectFilterRequest.self, bytes) == expected, "\(text)")
            }
        }
        let bytes = Array(#"{ "filterId" : "bench" }"#.utf8)
        #expect(read(FilterIDRequest.self, bytes) == (try JSONDecoder().decode(FilterIDRequest.self, from: Data(bytes))))
    }

    @Test("anything else is left to Foundation: unknown keys, escapes, fractions, duplicates, nulls")
    func otherForms() {
        let others = [
            #"{"id":42,"other":1}"#, #"{"i\u0064":42}"#, #"{"id":4.2e1}"#, #"{"id":042}"#, #"{"id":-0}"#, #"{"id":1,"id":2}"#,
            #"{"id":null}"#, #"{"id":"42"}"#, #"{"id":9223372036854775808}"#, #"{"service":null}"#, #"{"service":"caf\u00e9"}"#,
            #"{"id":42}x"#, #"{"id":42,}"#, "[]",
        ]
        for text in others {
            #expect(read(IDRequest.self, Array(text.utf8)) == nil, "\(text)")
            #expect(read(HealthCheckRequest.self, Array(text.utf8)) == nil, "\(text)")
        }
        let filterOthers = [
            #"{"filterId":"f","optionId":null}"#, #"{"filterId":"f","toggle":null}"#, #"{"filterId":"f","toggle":1}"#,
            #"{"filterId":"f","toggle":tru}"#, #"{"filterId":"f","toggle":truex}"#, #"{"filterId":"f","toggle":"true"}"#,
            #"{"filterId":"f","optionId":1.0}"#, #"{"filterId":"f","filterId":"g"}"#, #"{"optionId":1}"#,
            #"{"filterId":"f","presentation":"sideways"}"#, #"{"filterId":"f","presentation":null}"#, #"{"filterId":"f","x":1}"#,
        ]
        for text in filterOthers {
            #expect(read(SelectFilterRequest.self, Array(text.utf8)) == nil, "\(text)")
            #expect(read(SetPresentationRequest.self, Array(text.utf8)) == nil, "\(text)")
            #expect(read(FilterIDRequest.self, Array(text.utf8)) == nil, "\(text)")
        }
    }

    @Test("for random inputs the codec and a route's decoder decode what Foundation decodes, and fail where it fails")
    func randomInputs() {
        var generator = SplitMix64(seed: 0x5EED_1D)
        var readDirectly = 0
        #expect(!MessageDecoder<Empty>().readsJSONItself)
        let checks = [
            Check(IDRequest.self), Check(HealthCheckRequest.self), Check(FilterIDRequest.self), Check(SelectFilterRequest.self),
            Check(SetPresentationRequest.self),
        ]
        for _ in 0..<20_000 {
            let text = Self.randomInput(&generator)
            let bytes = Array(text.utf8)
            var direct = false
            for check in checks { direct = check.matchesFoundation(bytes, text) || direct }
            if direct { readDirectly += 1 }
        }
        #expect(readDirectly > 100, "the inputs must exercise the direct reader too, not only Foundation")
    }

    /// Decodes through the codec and a route's decoder, and expects Foundation's result.
    private struct Check {
        /// Expects the same result three ways; returns whether the type read `bytes` itself.
        let matchesFoundation: ([UInt8], String) -> Bool

        init<Message: JSONReadable & Sendable & Equatable>(_ type: Message.Type) {
            let routeDecoder = MessageDecoder<Message>()
            #expect(routeDecoder.readsJSONItself, "\(Message.self)")
            matchesFoundation = { bytes, text in
                let foundation = try? JSONDecoder().decode(Message.self, from: Data(bytes.isEmpty ? Array("{}".utf8) : bytes))
                #expect((try? JSONCodec.shared.decode(Message.self, from: bytes)) == foundation, "\(Message.self) \(text)")
                #expect((try? routeDecoder.decode(bytes, with: JSONCodec.shared)) == foundation, "\(Message.self) \(text)")
                return JSONCodec.read(bytes) { Message(json: &$0) } != nil
            }
        }
    }

    /// The message as it reads itself; `nil` when it leaves `bytes` to Foundation.
    private func read<Message: JSONReadable>(_ type: Message.Type, _ bytes: [UInt8]) -> Message? {
        JSONCodec.read(bytes) { Message(json: &$0) }
    }
}
