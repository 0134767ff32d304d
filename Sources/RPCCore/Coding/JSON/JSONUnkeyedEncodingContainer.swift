/// Writes the elements of a JSON array.
struct JSONUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let stream: JSONEncodingStream
    let slot: JSONEncodingStream.Slot

    var codingPath: [any CodingKey] { stream.codingPath(to: slot) }
    var count: Int { stream.count(of: slot) }

    mutating func encodeNil() throws {
        guard stream.beginElement(of: slot) != nil else { return }
        stream.output.append("null")
    }

    mutating func encode(_ value: Bool) throws {
        guard stream.beginElement(of: slot) != nil else { return }
        stream.output.append(value ? "true" : "false")
    }

    mutating func encode(_ value: String) throws {
        guard stream.beginElement(of: slot) != nil else { return }
        stream.output.appendString(value)
    }

    mutating func encode(_ value: Double) throws {
        try JSONEncodingStream.checkFinite(value, codingPath: codingPath + [JSONCodingKey(intValue: count)])
        guard stream.beginElement(of: slot) != nil else { return }
        stream.output.appendNumber(value)
    }

    mutating func encode(_ value: Float) throws {
        try JSONEncodingStream.checkFinite(value, codingPath: codingPath + [JSONCodingKey(intValue: count)])
        guard stream.beginElement(of: slot) != nil else { return }
        stream.output.appendNumber(value)
    }

    mutating func encode(_ value: Int) throws { encodeInteger(value) }
    mutating func encode(_ value: Int8) throws { encodeInteger(value) }
    mutating func encode(_ value: Int16) throws { encodeInteger(value) }
    mutating func encode(_ value: Int32) throws { encodeInteger(value) }
    mutating func encode(_ value: Int64) throws { encodeInteger(value) }
    mutating func encode(_ value: Int128) throws { encodeInteger(value) }
    mutating func encode(_ value: UInt) throws { encodeInteger(value) }
    mutating func encode(_ value: UInt8) throws { encodeInteger(value) }
    mutating func encode(_ value: UInt16) throws { encodeInteger(value) }
    mutating func encode(_ value: UInt32) throws { encodeInteger(value) }
    mutating func encode(_ value: UInt64) throws { encodeInteger(value) }
    mutating func encode(_ value: UInt128) throws { encodeInteger(value) }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        let index = count
        guard let mark = stream.beginElement(of: slot) else { return }
        try stream.writeMember(value, step: .index(index), in: slot, since: mark)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(JSONKeyedEncodingContainer<NestedKey>(stream: stream, slot: nestedSlot(.object)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        JSONUnkeyedEncodingContainer(stream: stream, slot: nestedSlot(.array))
    }

    mutating func superEncoder() -> any Encoder {
        JSONSlotEncoder(stream: stream, slot: nestedSlot(nil))
    }

    /// Starts the next element and opens its value: an object, an array, or (`nil`) a value
    /// for an encoder to write later.
    private func nestedSlot(_ shape: JSONEncodingStream.Shape?) -> JSONEncodingStream.Slot {
        let index = count
        guard stream.beginElement(of: slot) != nil else { return .none }
        let nested = stream.push(.index(index))
        if let shape { _ = stream.beginContainer(shape, in: nested) }
        return nested
    }

    private func encodeInteger(_ value: some FixedWidthInteger) {
        guard stream.beginElement(of: slot) != nil else { return }
        stream.output.appendInteger(value)
    }
}
