import Foundation
import PropertyBased
import RPCCore

/// Generators of values for the encoder's property tests: strings full of characters JSON
/// escapes or that are not ASCII, doubles of every magnitude, and nested trees of both.
enum JSONGen {
    typealias AnyGenerator<Value> = Generator<Value, AnySequence<Any>>

    /// Mostly printable ASCII, with control characters, quotes, backslashes, slashes, combining
    /// marks and scalars of every UTF-8 length.
    static let scalar = Gen<Unicode.Scalar>.frequency([
        (weight: 6, gen: Gen.unicodeScalar(in: " "..."~").eraseToAny()),
        (weight: 2, gen: Gen.unicodeScalar(in: "\u{0}"..."\u{1F}").eraseToAny()),
        (weight: 2, gen: Gen<Unicode.Scalar?>.element(of: ["\"", "\\", "/", "\u{7F}"]).map { $0! }.eraseToAny()),
        (weight: 1, gen: Gen.unicodeScalar(in: "\u{80}"..."\u{7FF}").eraseToAny()),
        (weight: 1, gen: Gen.unicodeScalar(in: "\u{300}"..."\u{36F}").eraseToAny()),
        (weight: 1, gen: Gen.unicodeScalar(in: "\u{800}"..."\u{D7FF}").eraseToAny()),
        (weight: 1, gen: Gen.unicodeScalar(in: "\u{E000}"..."\u{FFFF}").eraseToAny()),
        (weight: 1, gen: Gen.unicodeScalar(in: "\u{10000}"..."\u{10FFFF}").eraseToAny()),
    ])

    static let string = scalar.array(of: 0...12).map { String(String.UnicodeScalarView($0)) }.eraseToAny()

    /// Finite doubles: any bit pattern (subnormals, huge exponents, negative zero), whole
    /// numbers, and values whose formatting is easy to get wrong.
    static let number = Gen<Double>.frequency([
        (weight: 3, gen: Gen.uint64().map { Double(bitPattern: $0).isFinite ? Double(bitPattern: $0) : 0 }.eraseToAny()),
        (weight: 2, gen: Gen.int64(in: -1_000_000_000_000_000...1_000_000_000_000_000).map { Double($0) }.eraseToAny()),
        (weight: 2, gen: Gen.double(in: -1000...1000).eraseToAny()),
        (
            weight: 1,
            gen: Gen<Double?>.element(of: [0.1, 1e-7, 1e21, 1e22, -0.0, .leastNonzeroMagnitude, 1e16, 1e15, 123_456.789, .greatestFiniteMagnitude])
                .map { $0! }.eraseToAny()
        ),
    ]).eraseToAny()

    /// Any JSON value, nested at most `depth` levels deep.
    static func value(depth: Int) -> AnyGenerator<JSONValue> {
        let scalar = Gen<JSONValue>.frequency([
            (weight: 1, gen: Gen.always(JSONValue.null).eraseToAny()),
            (weight: 1, gen: Gen.bool.map { JSONValue.bool($0) }.eraseToAny()),
            (weight: 3, gen: number.map { JSONValue.number($0) }.eraseToAny()),
            (weight: 3, gen: string.map { JSONValue.string($0) }.eraseToAny()),
        ]).eraseToAny()
        guard depth > 0 else { return scalar }
        let child = value(depth: depth - 1)
        return Gen<JSONValue>.frequency([
            (weight: 2, gen: scalar),
            (weight: 1, gen: child.array(of: 0...4).map { JSONValue.array($0) }.eraseToAny()),
            (weight: 1, gen: zip(string, child).dictionary(ofAtMost: 0...4).map { JSONValue.object($0) }.eraseToAny()),
        ]).eraseToAny()
    }

    /// A date from 1900 to 2100, with milliseconds.
    static let date = zip(Gen.int64(in: -2_208_988_800...4_102_444_800), Gen.int(in: 0...999))
        .map { Date(timeIntervalSince1970: Double($0) + Double($1) / 1000) }

    /// A tree at most `depth` levels deep.
    static func tree(depth: Int) -> AnyGenerator<Tree> {
        let children = depth > 0 ? tree(depth: depth - 1).array(of: 0...3).eraseToAny() : Gen.always([Tree]()).eraseToAny()
        return zip(
            string, Gen.int64(), number.optional(), Gen<Tree.Kind>.case, string.array(of: 0...3), date.optional(),
            string.optional().optional(), zip(string, Gen.int()).dictionary(ofAtMost: 0...3),
            zip(Gen.int(), Gen.bool).dictionary(ofAtMost: 0...3), children
        )
        .map { name, id, score, kind, tags, when, note, counts, flags, children in
            Tree(name: name, id: id, score: score, kind: kind, tags: tags, when: when, note: note, counts: counts, flags: flags, children: children)
        }
        .eraseToAny()
    }
}

/// A recursive message with a member of each kind the encoder writes.
struct Tree: Codable, Hashable, Sendable {
    enum Kind: String, Codable, CaseIterable, Sendable {
        case leaf, branch
        case odd = "odd \"kind\"/\n"
    }

    var name: String
    var id: Int64
    var score: Double?
    var kind: Kind
    var tags: [String]
    var when: Date?
    var note: String??
    var counts: [String: Int]
    var flags: [Int: Bool]
    var children: [Tree]
}
