/// A wire enum of the answers, which a newer server may extend: decoding keeps a value this
/// version does not know as `.unknown(value)` instead of failing the whole message, and
/// encoding writes it back as it came. `init(rawValue:)` knows only the known values, so a
/// request naming another still fails to decode (see `KnownValue`).
///
/// Two values are equal when they are the same on the wire (as `RawRepresentable`'s `==`,
/// which concrete code may pick, says too): `.unknown("expanded")` equals `.expanded`.
protocol OpenWireEnum: RawRepresentable<String> {
    static func unknown(_ value: String) -> Self
}

extension OpenWireEnum {
    /// The value of `text`: a known one, or `.unknown(text)`.
    static func wireValue(_ text: String) -> Self {
        Self(rawValue: text) ?? .unknown(text)
    }

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
struct KnownValue<Value: RawRepresentable<String>>: Decodable, RawRepresentable {
    let value: Value

    /// The text of a known value; an error names this type as holding a string.
    var rawValue: String { value.rawValue }

    init?(rawValue: String) {
        guard let value = Value(rawValue: rawValue) else { return nil }
        self.value = value
    }

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
