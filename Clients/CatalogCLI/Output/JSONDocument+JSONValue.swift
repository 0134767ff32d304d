import CatalogKit

extension JSONDocument {
    /// The document of a `JSONValue` (an unordered dictionary), with keys sorted so that the
    /// output is the same on every run.
    package init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .integer(let value): self = .number(String(value))
        case .number(let value):
            self = value == value.rounded() && abs(value) < 1e15 ? .number(String(Int64(value))) : .number("\(value)")
        case .string(let value): self = .string(value)
        case .array(let elements): self = .array(elements.map(JSONDocument.init))
        case .object(let members):
            self = .object(members.sorted { $0.key < $1.key }.map { Member($0.key, JSONDocument($0.value)) })
        }
    }
}
