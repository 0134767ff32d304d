/// A wire enum of the answers, which a newer server may extend: decoding keeps a value this
/// version does not know as `.unknown(value)` instead of failing the whole message, and
/// encoding writes it back as it came. `init(rawValue:)` knows only the known values, so a
/// request naming another still fails to decode (see `KnownValue`).
protocol OpenWireEnum: RawRepresentable<String> {
    static func unknown(_ value: String) -> Self
}

extension OpenWireEnum {
    init(wireValueFrom decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer().decode(String.self)
        self = Self(rawValue: value) ?? .unknown(value)
    }

    func encodeWireValue(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// A value a request must hold one of the known values of: any other fails to decode with
/// the error Foundation gives for a closed enum, so a server answers it exactly as it answers
/// any invalid field.
struct KnownValue<Value: RawRepresentable<String>>: Decodable {
    let value: Value

    init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = Value(rawValue: text) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "Cannot initialize \(Value.self) from invalid String value \(text)"))
        }
        self.value = value
    }
}
