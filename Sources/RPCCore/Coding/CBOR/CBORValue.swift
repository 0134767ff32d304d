/// A CBOR data item (RFC 8949), as decoded: what any well-formed, valid input reads as.
///
/// Integers keep CBOR's own range (−2⁶⁴ … 2⁶⁴−1); strings sent in chunks (indefinite
/// length) read as one; a float reads as a `Double` whatever its width.
package indirect enum CBORValue: Hashable, Sendable {
    /// Major type 0: 0 … 2⁶⁴−1.
    case unsigned(UInt64)
    /// Major type 1: the integer −1 − n.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBORValue])
    /// The entries in the order they came (an encoder sorts them).
    case map([CBORMapEntry])
    case tagged(UInt64, CBORValue)
    /// A simple value other than false, true, null and undefined.
    case simple(UInt8)
    case bool(Bool)
    case null
    case undefined
    case float(Double)

    /// An integer as CBOR holds it.
    package static func integer(_ value: Int64) -> CBORValue {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }
}

/// One key and value of a CBOR map.
package struct CBORMapEntry: Hashable, Sendable {
    package var key: CBORValue
    package var value: CBORValue

    package init(_ key: CBORValue, _ value: CBORValue) {
        self.key = key
        self.value = value
    }
}
