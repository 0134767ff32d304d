import Foundation
import PropertyBased
import Synchronization
import Testing

@testable import RPCCore

/// Random values, nested and full of awkward strings and numbers: our JSON must be Foundation's
/// but for key order. On a failure the library shrinks the value and prints a seed to replay it.
@Suite("Streaming JSON encoder: random values as Foundation writes them")
struct StreamingJSONPropertyTests {
    @Test("random JSON values: same canonical JSON as Foundation's, and it parses to the same value")
    func jsonValues() async {
        let seen = Mutex((deep: 0, wideObjects: 0, escapes: 0))
        await propertyCheck(count: 400, input: JSONGen.value(depth: 4)) { value in
            try expectSameJSON(value)
            let features = Features(value)
            seen.withLock {
                if features.depth >= 3 { $0.deep += 1 }
                if features.wideObjects > 0 { $0.wideObjects += 1 }
                if features.escapedStrings > 0 { $0.escapes += 1 }
            }
        }
        // The generator reaches what matters: deep nesting, objects of several members, escapes.
        let counts = seen.withLock { $0 }
        #expect(counts.deep >= 40, "\(counts)")
        #expect(counts.wideObjects >= 40, "\(counts)")
        #expect(counts.escapes >= 40, "\(counts)")
    }

    /// What a generated value holds.
    struct Features {
        var depth = 0
        var wideObjects = 0
        var escapedStrings = 0

        init(_ value: JSONValue) {
            switch value {
            case .null, .bool, .integer, .number: break
            case .string(let string): count(string)
            case .array(let elements): add(elements.map(Features.init))
            case .object(let members):
                if members.count >= 2 { wideObjects += 1 }
                members.keys.forEach { count($0) }
                add(members.values.map(Features.init))
            }
        }

        private mutating func count(_ string: String) {
            if string.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "\"" || $0 == "\\" }) { escapedStrings += 1 }
        }

        private mutating func add(_ children: [Features]) {
            depth = 1 + (children.map(\.depth).max() ?? 0)
            wideObjects += children.map(\.wideObjects).reduce(0, +)
            escapedStrings += children.map(\.escapedStrings).reduce(0, +)
        }
    }

    @Test("random trees of structs, optionals, enums, dates and dictionaries: same JSON as Foundation's")
    func trees() async {
        await propertyCheck(count: 150, input: JSONGen.tree(depth: 3)) { tree in
            try expectSameJSON(tree)
        }
    }

    @Test("random strings and doubles, byte for byte")
    func scalars() async {
        await propertyCheck(count: 500, input: zip(JSONGen.string, JSONGen.number)) { (pair: (String, Double)) throws in
            let (string, number) = pair
            #expect(try ReferenceJSON.streamed([string]) == ReferenceJSON.encode([string]), "\(Array(string.unicodeScalars))")
            #expect(try ReferenceJSON.streamed([number]) == ReferenceJSON.encode([number]), "\(number)")
        }
    }

    /// Our bytes have the canonical form of Foundation's, parse with `JSONSerialization`, and
    /// decode with `JSONDecoder` to what Foundation's bytes decode to.
    func expectSameJSON<Value: Codable & Equatable>(_ value: Value) throws {
        let streamed = try ReferenceJSON.streamed(value)
        let reference = try ReferenceJSON.encode(value)
        #expect(try CanonicalJSON.canonical(streamed) == CanonicalJSON.canonical(reference))
        #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(streamed), options: .fragmentsAllowed) }
        let decoder = JSONDecoder()
        #expect(try decoder.decode(Value.self, from: Data(streamed)) == decoder.decode(Value.self, from: Data(reference)))
    }
}
