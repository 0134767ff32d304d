/// The `Encoder` handed to `encode(to:)`: it writes one value, into its slot of the stream.
/// It is its own single-value container, as Foundation's encoder is.
struct JSONSlotEncoder: Encoder, SingleValueEncodingContainer {
    let stream: JSONEncodingStream
    let slot: JSONEncodingStream.Slot

    var codingPath: [any CodingKey] { stream.codingPath(to: slot) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let opened = stream.beginContainer(.object, in: slot)
        return KeyedEncodingContainer(JSONKeyedEncodingContainer<Key>(stream: stream, slot: opened ? slot : .none))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let opened = stream.beginContainer(.array, in: slot)
        return JSONUnkeyedEncodingContainer(stream: stream, slot: opened ? slot : .none)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        self
    }

    // MARK: SingleValueEncodingContainer

    func encodeNil() throws {
        guard stream.beginScalar(in: slot) else { return }
        stream.output.append("null")
    }

    func encode(_ value: Bool) throws {
        guard stream.beginScalar(in: slot) else { return }
        stream.output.append(value ? "true" : "false")
    }

    func encode(_ value: String) throws {
        guard stream.beginScalar(in: slot) else { return }
        stream.output.appendString(value)
    }

    func encode(_ value: Double) throws {
        try JSONEncodingStream.checkFinite(value, codingPath: codingPath)
        guard stream.beginScalar(in: slot) else { return }
        stream.output.appendNumber(value)
    }

    func encode(_ value: Float) throws {
        try JSONEncodingStream.checkFinite(value, codingPath: codingPath)
        guard stream.beginScalar(in: slot) else { return }
        stream.output.appendNumber(value)
    }

    func encode(_ value: Int) throws { encodeInteger(value) }
    func encode(_ value: Int8) throws { encodeInteger(value) }
    func encode(_ value: Int16) throws { encodeInteger(value) }
    func encode(_ value: Int32) throws { encodeInteger(value) }
    func encode(_ value: Int64) throws { encodeInteger(value) }
    func encode(_ value: Int128) throws { encodeInteger(value) }
    func encode(_ value: UInt) throws { encodeInteger(value) }
    func encode(_ value: UInt8) throws { encodeInteger(value) }
    func encode(_ value: UInt16) throws { encodeInteger(value) }
    func encode(_ value: UInt32) throws { encodeInteger(value) }
    func encode(_ value: UInt64) throws { encodeInteger(value) }
    func encode(_ value: UInt128) throws { encodeInteger(value) }

    func encode<Value: Encodable>(_ value: Value) throws {
        try stream.writeValue(value, in: slot)
        stream.fillIfEmpty(slot)
    }

    private func encodeInteger(_ value: some FixedWidthInteger) {
        guard stream.beginScalar(in: slot) else { return }
        stream.output.appendInteger(value)
    }
}
