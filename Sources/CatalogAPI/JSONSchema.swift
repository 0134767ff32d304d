import RPCCore

/// A message type that can state its JSON shape as a JSON Schema, for `Schema/` and
/// `catalog.v1.Reflection/Describe`.
///
/// Each schema is written by hand and checked by the tests: `required` lists exactly the
/// non-optional stored properties, as the type's `Codable` conformance encodes them.
public protocol JSONSchemaDescribable {
    /// The JSON Schema of the message.
    static var jsonSchema: JSONValue { get }
}

/// Small builders for the JSON Schema fragments the contract uses.
public enum JSONSchema {
    /// A string, optionally constrained by a regular expression or a format such as `date-time`.
    public static func string(pattern: String? = nil, format: String? = nil) -> JSONValue {
        var schema: [String: JSONValue] = ["type": "string"]
        if let pattern { schema["pattern"] = .string(pattern) }
        if let format { schema["format"] = .string(format) }
        return .object(schema)
    }

    /// A string.
    public static let string: JSONValue = string()

    /// An RFC 3339 UTC timestamp.
    public static let dateTime: JSONValue = string(format: "date-time")

    /// A whole number, optionally bounded (inclusive).
    public static func integer(minimum: Int? = nil, maximum: Int? = nil) -> JSONValue {
        var schema: [String: JSONValue] = ["type": "integer"]
        if let minimum { schema["minimum"] = .number(Double(minimum)) }
        if let maximum { schema["maximum"] = .number(Double(maximum)) }
        return .object(schema)
    }

    /// A whole number.
    public static let integer: JSONValue = integer()

    /// A number, optionally bounded (inclusive).
    public static func number(minimum: Double? = nil, maximum: Double? = nil) -> JSONValue {
        var schema: [String: JSONValue] = ["type": "number"]
        if let minimum { schema["minimum"] = .number(minimum) }
        if let maximum { schema["maximum"] = .number(maximum) }
        return .object(schema)
    }

    /// `true` or `false`.
    public static let boolean: JSONValue = .object(["type": "boolean"])

    /// One of the given strings.
    public static func enumeration(_ values: [String]) -> JSONValue {
        .object(["type": "string", "enum": .array(values.map(JSONValue.string))])
    }

    /// One of the raw values of a string enum, in declaration order.
    public static func enumeration<E: CaseIterable & RawRepresentable>(_ type: E.Type) -> JSONValue where E.RawValue == String {
        enumeration(type.allCases.map(\.rawValue))
    }

    /// Exactly this string.
    public static func constant(_ value: String) -> JSONValue {
        .object(["type": "string", "const": .string(value)])
    }

    /// An array whose elements all match `element`.
    public static func array(of element: JSONValue) -> JSONValue {
        .object(["type": "array", "items": element])
    }

    /// An object with these properties, of which `required` must be present.
    public static func object(properties: [String: JSONValue], required: [String] = []) -> JSONValue {
        var schema: [String: JSONValue] = ["type": "object", "properties": .object(properties)]
        if !required.isEmpty { schema["required"] = .array(required.map(JSONValue.string)) }
        return .object(schema)
    }

    /// Any JSON object.
    public static let anyObject: JSONValue = .object(["type": "object"])

    /// `schema` or `null` (a `FieldUpdate`: `null` clears the value).
    public static func nullable(_ schema: JSONValue) -> JSONValue {
        .object(["anyOf": .array([schema, .object(["type": "null"])])])
    }

}
