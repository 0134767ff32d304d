import CatalogKit

/// The fields of a message from its JSON Schema, one per line, nested fields indented:
///
/// ```
///   FIELD       TYPE      NOTES
///   name        string    required
///   color       string    pattern ^#[0-9A-Fa-f]{6}$
///   price       object
///     amount    string    required, pattern …
/// ```
struct SchemaOutline {
    private let schema: JSONValue

    init(_ schema: JSONValue) { self.schema = schema }

    func render(context: CommandOutput.HumanContext) -> String {
        var table = Table(columns: [.init("  FIELD"), .init("TYPE"), .init("NOTES", flexible: true)])
        appendFields(of: schema, depth: 1, to: &table)
        if table.rows.isEmpty { return "  (no fields)\n" }
        return table.render(width: context.width, headers: context.headers, style: context.style)
    }

    private func appendFields(of schema: JSONValue, depth: Int, to table: inout Table) {
        guard case .object(let properties)? = Self.member(schema, "properties") else { return }
        let required = Set(Self.member(schema, "required").flatMap(Self.strings) ?? [])
        for (name, property) in properties.sorted(by: { $0.key < $1.key }) {
            var notes = required.contains(name) ? ["required"] : []
            notes += Self.notes(property)
            table.append([
                Table.Cell(String(repeating: "  ", count: depth) + name), Table.Cell(Self.typeName(property)),
                Table.Cell(notes.joined(separator: ", ")),
            ])
            let nested = Self.nonNull(property)
            appendFields(of: Self.member(nested, "items") ?? nested, depth: depth + 1, to: &table)
        }
    }

    /// `string`, `array of object`, `integer or null`…
    private static func typeName(_ schema: JSONValue) -> String {
        if case .array(let choices)? = member(schema, "anyOf") {
            return choices.map(typeName).joined(separator: " or ")
        }
        let type = member(schema, "type")?.stringValue ?? (member(schema, "const") != nil ? "constant" : "any")
        if type == "array", let items = member(schema, "items") { return "array of \(typeName(items))" }
        return type
    }

    private static func notes(_ schema: JSONValue) -> [String] {
        let schema = nonNull(schema)
        var notes: [String] = []
        if let values = member(schema, "enum").flatMap(strings) { notes.append("one of " + values.joined(separator: "|")) }
        if let constant = member(schema, "const")?.stringValue { notes.append("always \(constant)") }
        if let format = member(schema, "format")?.stringValue { notes.append(format) }
        let minimum = member(schema, "minimum")?.intValue
        let maximum = member(schema, "maximum")?.intValue
        if minimum != nil || maximum != nil { notes.append("\(minimum.map(String.init) ?? "")...\(maximum.map(String.init) ?? "")") }
        if let pattern = member(schema, "pattern")?.stringValue { notes.append("pattern \(pattern)") }
        return notes
    }

    /// The non-null choice of an `anyOf [T, null]`, else the schema itself.
    private static func nonNull(_ schema: JSONValue) -> JSONValue {
        guard case .array(let choices)? = member(schema, "anyOf") else { return schema }
        return choices.first { member($0, "type")?.stringValue != "null" } ?? schema
    }

    private static func member(_ value: JSONValue?, _ key: String) -> JSONValue? {
        guard case .object(let members)? = value else { return nil }
        return members[key]
    }

    private static func strings(_ value: JSONValue) -> [String]? {
        guard case .array(let elements) = value else { return nil }
        return elements.compactMap(\.stringValue)
    }
}
