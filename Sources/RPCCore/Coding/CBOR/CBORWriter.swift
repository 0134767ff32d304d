/// Writes CBOR in its deterministic form (RFC 8949 §4.2.1): the shortest argument for every
/// integer and length, floats in the shortest of 16, 32 and 64 bits that keeps the value,
/// definite lengths only. Map keys must be written in the bytewise order of their encodings:
/// `write(_ value:)` sorts them; a caller writing a map entry by entry writes them in order.
package struct CBORWriter: ~Copyable {
    var output: ByteOutput

    package init(reservingCapacity capacity: Int = 64) {
        output = ByteOutput(capacity: capacity)
    }

    /// A copy of the bytes written so far.
    package var bytes: [UInt8] { output.bytes() }

    // MARK: Heads

    /// The initial byte and argument of an item of `major` type.
    mutating func writeHead(_ major: CBORMajorType, _ argument: UInt64) {
        let high = major.rawValue << 5
        switch argument {
        case 0..<24:
            output.append(high | UInt8(argument))
        case 24...0xFF:
            output.append(high | 24)
            output.append(UInt8(argument))
        case 0x100...0xFFFF:
            output.append(high | 25)
            appendBigEndian(UInt16(argument))
        case 0x1_0000...0xFFFF_FFFF:
            output.append(high | 26)
            appendBigEndian(UInt32(argument))
        default:
            output.append(high | 27)
            appendBigEndian(argument)
        }
    }

    private mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.bigEndian) { output.append($0.assumingMemoryBound(to: UInt8.self)) }
    }

    // MARK: Scalars

    package mutating func writeUnsigned(_ value: UInt64) {
        writeHead(.unsigned, value)
    }

    package mutating func writeInteger(_ value: Int64) {
        if value >= 0 {
            writeHead(.unsigned, UInt64(value))
        } else {
            writeHead(.negative, UInt64(-1 - value))
        }
    }

    package mutating func writeInteger(_ value: Int) {
        writeInteger(Int64(value))
    }

    package mutating func writeBool(_ value: Bool) {
        output.append(value ? 0xF5 : 0xF4)
    }

    package mutating func writeNull() {
        output.append(0xF6)
    }

    /// The shortest of half, single and double precision that holds `value` exactly; NaN as
    /// the half-precision quiet NaN `f97e00`.
    package mutating func writeDouble(_ value: Double) {
        if let half = CBORFloat.halfBits(exactly: value) {
            output.append(0xF9)
            appendBigEndian(half)
        } else if let single = Float(exactly: value) {
            output.append(0xFA)
            appendBigEndian(single.bitPattern)
        } else {
            output.append(0xFB)
            appendBigEndian(value.bitPattern)
        }
    }

    package mutating func writeText(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            writeHead(.text, UInt64(utf8.count))
            output.append(utf8)
        }
    }

    package mutating func writeBytes(_ value: some Collection<UInt8>) {
        writeHead(.bytes, UInt64(value.count))
        for byte in value { output.append(byte) }
    }

    /// An array of `count` items; write them next.
    package mutating func writeArrayHeader(count: Int) {
        writeHead(.array, UInt64(count))
    }

    /// A map of `count` entries; write each key then its value next, keys in order.
    package mutating func writeMapHeader(count: Int) {
        writeHead(.map, UInt64(count))
    }

    package mutating func writeTag(_ tag: UInt64) {
        writeHead(.tag, tag)
    }

    /// Appends bytes that already hold whole CBOR items.
    package mutating func writeEncoded(_ encoded: [UInt8]) {
        encoded.withUnsafeBufferPointer { output.append($0) }
    }

    // MARK: Values

    /// `value` in the deterministic form, its maps' keys sorted.
    package mutating func write(_ value: CBORValue) {
        switch value {
        case .unsigned(let n): writeHead(.unsigned, n)
        case .negative(let n): writeHead(.negative, n)
        case .bytes(let data): writeBytes(data)
        case .text(let text): writeText(text)
        case .array(let items):
            writeArrayHeader(count: items.count)
            for item in items { write(item) }
        case .map(let entries):
            writeMapHeader(count: entries.count)
            let encoded = entries.map { entry -> (key: [UInt8], value: CBORValue) in
                var key = CBORWriter()
                key.write(entry.key)
                return (key.bytes, entry.value)
            }
            for entry in encoded.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                writeEncoded(entry.key)
                write(entry.value)
            }
        case .tagged(let tag, let content):
            writeTag(tag)
            write(content)
        case .simple(let simple):
            if simple < 24 {
                output.append(0xE0 | simple)
            } else {
                output.append(0xF8)
                output.append(simple)
            }
        case .bool(let flag): writeBool(flag)
        case .null: writeNull()
        case .undefined: output.append(0xF7)
        case .float(let number): writeDouble(number)
        }
    }

    /// `value` encoded on its own.
    package static func encode(_ value: CBORValue) -> [UInt8] {
        var writer = CBORWriter()
        writer.write(value)
        return writer.bytes
    }
}
