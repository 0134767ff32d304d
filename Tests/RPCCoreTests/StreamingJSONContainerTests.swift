import Foundation
import Testing

@testable import RPCCore

@Suite("Streaming JSON encoder: containers, key order, coding paths and the fallback")
struct StreamingJSONContainerTests {
    /// Our output and Foundation's, equal but for the order of object members.
    func expectSameJSON<Value: Encodable>(_ value: Value, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let streamed = try ReferenceJSON.streamed(value)
        #expect(
            try CanonicalJSON.canonical(streamed) == CanonicalJSON.canonical(ReferenceJSON.encode(value)),
            sourceLocation: sourceLocation
        )
    }

    struct Declared: Codable {
        var zeta = 1
        var alpha = "a"
        var mike: [Int] = []
        var bravo: Bool? = true
        var omitted: String?
        var yankee = Inner()
    }

    struct Inner: Codable {
        var kilo = 1
        var echo: Double?
    }

    @Test("keys come in the order they are encoded, the same every time")
    func keyOrder() throws {
        let bytes = try ReferenceJSON.streamed(Declared())
        #expect(try CanonicalJSON.topLevelKeys(bytes) == ["zeta", "alpha", "mike", "bravo", "yankee"])
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"zeta":1,"alpha":"a","mike":[],"bravo":true,"yankee":{"kilo":1}}"#)
        #expect(try ReferenceJSON.streamed(Declared()) == bytes)
    }

    struct DoubleOptional: Codable {
        var value: Int??
    }

    enum Letter: String, Codable { case a, b }
    enum Number: Int, Codable { case one = 1, two = 2 }

    @Test("empty containers, absent and present optionals, nested optionals, raw-value enums")
    func shapes() throws {
        #expect(try ReferenceJSON.streamed([Int]()) == Array("[]".utf8))
        #expect(try ReferenceJSON.streamed([String: Int]()) == Array("{}".utf8))
        #expect(try ReferenceJSON.streamed(Empty()) == Array("{}".utf8))
        #expect(try ReferenceJSON.streamed([[Int]](repeating: [], count: 2)) == Array("[[],[]]".utf8))
        #expect(try ReferenceJSON.streamed(DoubleOptional(value: nil)) == Array("{}".utf8))
        #expect(try ReferenceJSON.streamed(DoubleOptional(value: .some(nil))) == Array(#"{"value":null}"#.utf8))
        #expect(try ReferenceJSON.streamed(DoubleOptional(value: 3)) == Array(#"{"value":3}"#.utf8))
        for value in [DoubleOptional(value: nil), DoubleOptional(value: .some(nil)), DoubleOptional(value: 3)] {
            #expect(try ReferenceJSON.streamed(value) == ReferenceJSON.encode(value))
        }
        #expect(try ReferenceJSON.streamed([Letter.a, .b]) == Array(#"["a","b"]"#.utf8))
        #expect(try ReferenceJSON.streamed(["k": Number.two]) == Array(#"{"k":2}"#.utf8))
        try expectSameJSON([[1, 2], [], [3]])
        try expectSameJSON(["a": ["b": ["c": [Int?.none]]]])
    }

    @Test("dictionaries: String and Int keys as object keys, other keys as Foundation writes them")
    func dictionaries() throws {
        try expectSameJSON(["b": 1, "a": 2, "c/d": 3, "é\"": 4])
        try expectSameJSON([1: "a", 20: "b", -3: "c"])
        #expect(try ReferenceJSON.streamed([7: true]) == Array(#"{"7":true}"#.utf8))
        try expectSameJSON([Int8(1): "a", 2: "b"])
        try expectSameJSON([Letter.a: 1])
        try expectSameJSON(["x": JSONValue.object(["k": .array([1, "two", .null, true, 2.5]), "l": 3])])
    }

    @Test("a nested value that writes nothing is {}; a top-level one throws, as in Foundation")
    func valuesThatWriteNothing() throws {
        try expectSameJSON(["n": HandWritten.Nothing()])
        try expectSameJSON([HandWritten.Nothing(), HandWritten.Nothing()])
        #expect(try ReferenceJSON.streamed([HandWritten.Nothing()]) == Array("[{}]".utf8))
        // Through a single-value container (an optional's), even at the top level.
        #expect(try ReferenceJSON.streamed(Optional(HandWritten.Nothing())) == Array("{}".utf8))
        #expect(try ReferenceJSON.encode(Optional(HandWritten.Nothing())) == Array("{}".utf8))
        try expectSameJSON(["n": Optional(HandWritten.Nothing())])
        #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode(HandWritten.Nothing()) }
        #expect(throws: RPCError.self) { try JSONCodec().encode(HandWritten.Nothing()) }
    }

    @Test("nested containers, super-encoders, subclasses and objects reopened, used in order, stream as Foundation writes them")
    func handWritten() throws {
        try expectSameJSON(HandWritten.NestedInOrder())
        try expectSameJSON(HandWritten.SuperEncoders())
        try expectSameJSON(HandWritten.Derived(a: 1))
        try expectSameJSON(HandWritten.DerivedWithSuper(a: 1))
        try expectSameJSON(HandWritten.ObjectThenKeys())
        #expect(
            String(decoding: try ReferenceJSON.streamed(HandWritten.NestedInOrder()), as: UTF8.self)
                == #"{"a":1,"inner":{"a":"x","list":[1,[true,null],{"b":2.5},"after"]},"list":[],"b":{},"c":{},"d":[]}"#
        )
        #expect(
            String(decoding: try ReferenceJSON.streamed(HandWritten.SuperEncoders()), as: UTF8.self).hasSuffix(#""list":[1,{"a":2},3]}"#)
        )
    }

    @Test("a member whose encoding throws is left out when the error is caught, as Foundation leaves it out")
    func caughtFailures() throws {
        try expectSameJSON(HandWritten.IgnoresFailures())
        #expect(
            String(decoding: try ReferenceJSON.streamed(HandWritten.IgnoresFailures()), as: UTF8.self)
                == #"{"a":1,"list":[1,3]}"#
        )
        #expect(throws: HandWritten.Failing.Failure.self) { try StreamingJSONEncoder().encode([HandWritten.Failing()]) }
    }

    @Test("containers filled out of order are encoded by Foundation instead, with the same JSON", arguments: [
        Sample(HandWritten.NestedAfterParent()), Sample(HandWritten.Columns()), Sample(HandWritten.LateSuperEncoder()),
    ])
    func fallback(sample: Sample) throws {
        #expect(try sample.streamed() == nil, "a stream cannot write it")
        let bytes = try sample.codecBytes()
        #expect(try CanonicalJSON.canonical(bytes) == CanonicalJSON.canonical(sample.reference()))
    }

    @Test("the codec's output for one of those: the expected JSON")
    func fallbackOutput() throws {
        let bytes = try JSONCodec().encode(HandWritten.LateSuperEncoder())
        #expect(bytes == Array("[1,2,3]".utf8))
        let columns = try JSONCodec().encode(HandWritten.Columns())
        #expect(try CanonicalJSON.canonical(columns) == #"{"a":[0,1,2],"b":["0","1","2"]}"#)
    }

    @Test("encode(to:) sees the coding paths and counts Foundation's encoder shows")
    func codingPaths() throws {
        let streamedLog = PathLog()
        _ = try ReferenceJSON.streamed(["top": [PathProbe(log: streamedLog, depth: 2), PathProbe(log: streamedLog, depth: 1)]])
        let referenceLog = PathLog()
        _ = try ReferenceJSON.encode(["top": [PathProbe(log: referenceLog, depth: 2), PathProbe(log: referenceLog, depth: 1)]])
        #expect(streamedLog.entries.count > 15)
        #expect(streamedLog.entries == referenceLog.entries)
        #expect(streamedLog.entries.contains("value: top Index 0 child Index 0 Index 0"))
    }

    @Test("values in nested containers and super-encoders have the nested container's key in their path")
    func nestedCodingPaths() throws {
        // Foundation's encoder leaves the nested container's key out of the first two
        // (`top b`, `top Index 0`); the stream keeps it.
        let log = PathLog()
        _ = try ReferenceJSON.streamed(["top": NestedPathProbe(log: log)])
        #expect(log.entries == ["value: top a b", "value: top list Index 0", "value: top super", "value: top c"])
    }
}

/// An `Encodable` of any type, for parameterized tests.
struct Sample: Sendable, CustomTestStringConvertible {
    let value: any Encodable & Sendable
    init(_ value: any Encodable & Sendable) { self.value = value }

    var testDescription: String { String(describing: type(of: value)) }

    func streamed() throws -> [UInt8]? { try StreamingJSONEncoder().encode(value) }
    func reference() throws -> [UInt8] { try ReferenceJSON.encode(value) }
    func codecBytes() throws -> [UInt8] { try JSONCodec().encode(value) }
}

/// What the probes saw, in order.
final class PathLog: @unchecked Sendable {
    var entries: [String] = []

    func record(_ label: String, _ path: [any CodingKey]) {
        entries.append(([label] + path.map(\.stringValue)).joined(separator: " "))
    }
}

/// Records the coding paths of its encoder and containers, and the count of its unkeyed
/// container, at every step, nesting itself `depth` levels deep through keyed and unkeyed
/// containers.
struct PathProbe: Encodable, @unchecked Sendable {
    let log: PathLog
    let depth: Int

    enum Key: String, CodingKey { case child, value }

    func encode(to encoder: any Encoder) throws {
        log.record("encoder:", encoder.codingPath)
        if depth % 2 == 0 {
            var container = encoder.container(keyedBy: Key.self)
            log.record("keyed:", container.codingPath)
            try container.encode(Recorder(log: log), forKey: .value)
            if depth > 0 { try container.encode([PathProbe(log: log, depth: depth - 1)], forKey: .child) }
        } else {
            var list = encoder.unkeyedContainer()
            log.record("unkeyed \(list.count):", list.codingPath)
            try list.encode(Recorder(log: log))
            log.record("unkeyed \(list.count):", list.codingPath)
            try list.encode(PathProbe(log: log, depth: depth - 1))
        }
    }
}

/// Records the coding path of its encoder as a `value:` entry.
struct Recorder: Encodable, @unchecked Sendable {
    let log: PathLog

    func encode(to encoder: any Encoder) throws {
        log.record("value:", encoder.codingPath)
        var single = encoder.singleValueContainer()
        try single.encode(1)
    }
}

/// Has `Recorder`s write values into a nested keyed container, a nested unkeyed container and
/// two super-encoders.
struct NestedPathProbe: Encodable, @unchecked Sendable {
    let log: PathLog

    enum Key: String, CodingKey { case a, b, c, list }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        var nested = container.nestedContainer(keyedBy: Key.self, forKey: .a)
        try nested.encode(Recorder(log: log), forKey: .b)
        var list = container.nestedUnkeyedContainer(forKey: .list)
        try list.encode(Recorder(log: log))
        try Recorder(log: log).encode(to: container.superEncoder())
        try Recorder(log: log).encode(to: container.superEncoder(forKey: .c))
    }
}
