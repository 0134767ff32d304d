extension MessageContext {
    func writeSchema(_ writer: inout SourceWriter) {
        writer.block("extension \(qualified): JSONSchemaDescribable {") { writer in
            writer.block("public static var jsonSchema: JSONValue {") { writer in
                writer.block("JSONSchema.object(", closing: ")") { writer in
                    writer.block("properties: [", closing: "],") { writer in
                        for field in message.fields { writer.line("\"\(field.name)\": \(schema(field.type, field)),") }
                    }
                    writer.line("required: [" + requiredFields.map { "\"\($0.name)\"" }.joined(separator: ", ") + "]")
                }
            }
        }
    }

    /// The JSON Schema expression of a value of `type`, with the field's constraints.
    private func schema(_ type: FieldType, _ field: Field) -> String {
        switch type {
        case .string:
            if let constant = field.constant { return "JSONSchema.constant(\(constant))" }
            if let pattern = field.pattern { return "JSONSchema.string(pattern: \(swiftLiteral(pattern)))" }
            return "JSONSchema.string"
        case .int, .int64:
            return "JSONSchema.integer" + bounds(field, always: false)
        case .double: return "JSONSchema.number" + bounds(field, always: true)
        case .bool: return "JSONSchema.boolean"
        case .date: return "JSONSchema.dateTime"
        case .jsonObject: return "JSONSchema.anyObject"
        case .named(let name): return "\(name).jsonSchema"
        case .array(let element): return "JSONSchema.array(of: \(schema(element, field)))"
        case .update(let value): return "JSONSchema.nullable(\(schema(value, field)))"
        }
    }

    private func bounds(_ field: Field, always: Bool) -> String {
        let arguments = [field.minimum.map { "minimum: \($0)" }, field.maximum.map { "maximum: \($0)" }].compactMap { $0 }
        return arguments.isEmpty && !always ? "" : "(" + arguments.joined(separator: ", ") + ")"
    }
}
