import Foundation

// What generated `CBORWritable` conformances write besides scalars: keys known at compile
// time and dates as the contract's text.

extension CBORWriter {
    /// A map key: the text `name`, which must be ASCII.
    package mutating func writeKey(_ name: StaticString) {
        writeHead(.text, UInt64(name.utf8CodeUnitCount))
        output.append(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }

    /// A free-form JSON object as a CBOR map, deterministically.
    package mutating func writeJSONObject(_ object: [String: JSONValue]) {
        write(JSONCBORBridge.cbor(.object(object)))
    }

    /// `date` as RFC 3339 text, as the JSON codec writes it.
    package mutating func writeDate(_ date: Date) {
        RFC3339.withUTF8(of: date) { utf8 in
            writeHead(.text, UInt64(utf8.count))
            output.append(utf8)
        }
    }
}
