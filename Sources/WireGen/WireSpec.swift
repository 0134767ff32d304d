/// The messages of a set of `.wire` files, as written: what the generator reads.
package struct WireSpec: Sendable {
    package var files: [File] = []
    /// Named string patterns, by name.
    package var patterns: [String: String] = [:]
    /// Types written by hand that hold a string on the wire (`RawRepresentable<String>`).
    package var externStrings: Set<String> = []

    package struct File: Sendable {
        /// The file's name without `.wire`, which names the generated file too.
        package var name: String
        package var declarations: [Declaration]
    }
}

/// A message or an enum, with its doc comment lines (without `///`).
package enum Declaration: Sendable {
    case message(Message)
    case enumeration(Enumeration)

    package var name: String {
        switch self {
        case .message(let message): message.name
        case .enumeration(let enumeration): enumeration.name
        }
    }
}

/// A struct of the contract: its fields in order, and the types declared inside it.
package struct Message: Sendable {
    package var name: String
    package var doc: [String]
    /// Protocols the struct adopts besides `Codable, Sendable, Hashable`.
    package var conformances: [String]
    package var fields: [Field]
    package var nested: [Declaration]
}

/// A string enum: closed (`init(rawValue:)` refuses other values) or open (a value this
/// version does not know is kept as `.unknown(value)`).
package struct Enumeration: Sendable {
    package var name: String
    package var doc: [String]
    package var isOpen: Bool
    package var cases: [Case]

    package struct Case: Sendable {
        package var name: String
        package var doc: [String]
    }
}

package struct Field: Sendable {
    package var name: String
    package var doc: [String]
    package var type: FieldType
    /// `T?`: absent from the wire when nil.
    package var isOptional: Bool
    /// For a string (or the strings of an array): a regular expression, for the JSON Schema.
    package var pattern: String?
    /// For a number: inclusive bounds, for the JSON Schema, as written.
    package var minimum: String?
    package var maximum: String?
    /// A Swift expression: the only value (for the JSON Schema), and the initializer's default.
    package var constant: String?
    /// A Swift expression: the initializer's default.
    package var defaultValue: String?
    /// For an open enum: a value this version does not know fails to decode.
    package var knownOnly: Bool
}

package indirect enum FieldType: Sendable, Equatable {
    case string, int, int64, bool, double, date
    /// `JSONObject`: any JSON object (`[String: JSONValue]`), for free-form details.
    case jsonObject
    /// A message or an enum of the spec, or an extern string type, as written.
    case named(String)
    case array(FieldType)
    /// `FieldUpdate<T>`: absent leaves the value, `null` clears it.
    case update(FieldType)
}
