/// Writes the entries of a JSON object, `"key":value`, in the order they are encoded.
///
/// A key encoded twice appears twice (Foundation's encoder keeps the last value); `Codable`
/// conformances that the compiler writes never do that.
struct JSONKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let stream: JSONEncodingStream
    let slot: JSONEncodingStream.Slot

    var codingPath: [any CodingKey] { stream.codingPath(to: slot) }

    mutating func encodeNil(forKey key: Key) throws {
        guard stream.beginEntry(of: slot, key: key.stringValue) != nil else { return }
        stream.output.append("null")
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        guard stream.beginEntry(of: slot, key: key.stringValue) != nil else { return }
        stream.output.append(value ? "true" : "false")
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        guard stream.beginEntry(of: slot, key: key.stringValue) != nil else { return }
        stream.output.appendString(value)
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        try JSONEncodingStream.checkFinite(value, codingPath: codingPath + [key])
        guard stream.beginEntry(of: slot, key: key.stringValue) != nil else { return }
        stream.output.appendNumber(value)
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        try JSONEncodingStream.checkFinite(value, codingPath: codingPath + [key])
        guard stream.beginEntry(of: slot, key: key.stringValue) != nil else { return }
        stream.output.appendNumber(value)
    }

    mutating func encode(_ value: Int, forKey key: Key) throws { encodeInteger(value, forKey: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { encodeInteger(value, forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { encodeInteger(value, forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { encodeInteger(value, forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { encodeInteger(value, forKey: key) }
    mutating func encode(_ value: Int128, forKey key: Key) throws { encodeInteger(value, forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { encodeInteger(value, forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { encodeInteger(value, forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { encodeInteger(value, forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { encodeInteger(value, forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { encodeInteger(value, forKey: key) }
    mutating func encode(_ value: UInt128, forKey key: Key) throws { encodeInteger(value, forKey: key) }

    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        guard let mark = stream.beginEntry(of: slot, key: key.stringValue) else { return }
        try stream.writeMember(value, step: .key(key), in: slot, since: mark)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(JSONKeyedEncodingContainer<NestedKey>(stream: stream, slot: nestedSlot(.object, forKey: key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        JSONUnkeyedEncodingContainer(stream: stream, slot: nestedSlot(.array, forKey: key))
    }

    mutating func superEncoder() -> any Encoder {
        JSONSlotEncoder(stream: stream, slot: nestedSlot(nil, forKey: JSONCodingKey.super))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        JSONSlotEncoder(stream: stream, slot: nestedSlot(nil, forKey: key))
    }

    /// Starts the entry for `key` and opens its value: an object, an array, or (`nil`) a value
    /// for an encoder to write later.
    private func nestedSlot(_ shape: JSONEncodingStream.Shape?, forKey key: some CodingKey) -> JSONEncodingStream.Slot {
        guard stream.beginEntry(of: slot, key: key.stringValue) != nil else { return .none }
        let nested = stream.push(.key(key))
        if let shape { _ = stream.beginContainer(shape, in: nested) }
        return nested
    }

    /// Inlined into each overload, so that the integer writer is specialized for its type.
    @inline(__always)
    private func encodeInteger(_ value: some FixedWidthInteger, forKey key: Key) {
        guard stream.beginEntry(of: slot, key: key.stringValue) != nil else { return }
        stream.output.appendInteger(value)
    }
}
