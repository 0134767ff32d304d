/// Any JSON value, for free-form error details.
/// Numbers compare as JSON does: `.integer(2)` equals `.number(2.0)`, the form a whole
/// `.number` takes once encoded and decoded again.
public enum JSONValue: Codable, Sendable, Hashable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number, such as an id or a count: every JSON integer that fits in 64 bits.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, by member name.
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value):
            if value.rounded() == value, let integer = Int64(exactly: value) {
                try container.encode(integer)
            } else {
                try container.encode(value)
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value as an integer, when it is a whole number.
    public var intValue: Int? { int64Value.flatMap { Int(exactly: $0) } }

    /// The value as a 64-bit integer, when it is a whole number: an id in error details.
    public var int64Value: Int64? {
        switch self {
        case .integer(let value): value
        case .number(let value): Int64(exactly: value)
        default: nil
        }
    }

    /// The value as a floating-point number, when it is a number.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    /// The value as a string, when it is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}

extension JSONValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByFloatLiteral
{
    public init(integerLiteral value: Int) { self = .integer(Int64(value)) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
}

extension JSONValue {
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer, .integer), (.integer, .number), (.number, .integer), (.number, .number):
            lhs.int64Value.map { $0 == rhs.int64Value } ?? (lhs.doubleValue == rhs.doubleValue)
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .integer, .number:
            if let integer = int64Value { hasher.combine(integer) } else { hasher.combine(doubleValue) }
        case .string(let value): hasher.combine(value)
        case .array(let value): hasher.combine(value)
        case .object(let value): hasher.combine(value)
        }
    }
}
