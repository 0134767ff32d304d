extension MessageContext {
    func writeJSONWritable(_ writer: inout SourceWriter) {
        writer.block("extension \(qualified): JSONWritable {") { writer in
            writer.block("package func writeJSON(to writer: inout JSONWriter) {") { writer in
                writer.line("writer.beginObject()")
                for field in message.fields {
                    writeEntry(field, key: "writer.key(\"\(field.name)\")", null: "writer.null()", &writer) { value, shape, writer in
                        writeValue(value, shape, depth: 0, &writer)
                    }
                }
                writer.line("writer.endObject()")
            }
        }
    }

    private func writeValue(_ value: String, _ shape: Shape, depth: Int, _ writer: inout SourceWriter) {
        switch shape {
        case .string, .int, .int64, .bool, .double, .date: writer.line("writer.value(\(value))")
        case .jsonObject: writer.line("writer.value(object: \(value))")
        case .text: writer.line("writer.value(\(value).rawValue)")
        case .message: writer.line("\(value).writeJSON(to: &writer)")
        case .array(let element):
            let elementName = depth == 0 ? "element" : "element\(depth)"
            writer.line("writer.beginArray()")
            writer.block("for \(elementName) in \(value) {") { writer in writeValue(elementName, element, depth: depth + 1, &writer) }
            writer.line("writer.endArray()")
        }
    }

    func writeJSONReadable(_ writer: inout SourceWriter) {
        writer.block("extension \(qualified): JSONReadable {") { writer in
            writer.block("package init?(json reader: inout JSONReader) {") { writer in
                for field in message.fields {
                    let type = isUpdate(field) ? swiftType(field.type) : swiftType(field.type.innermostOptional)
                    writer.line("var \(field.name): \(type)?")
                }
                writer.block("let read = reader.readObject { reader, key in") { writer in
                    writer.switchBlock("switch key {") { writer in
                        for field in message.fields {
                            writer.line("case \"\(field.name)\" where \(field.name) == nil:")
                            writer.indented { writer in
                                let read = readExpression(shape(of: field))
                                if isUpdate(field) {
                                    writer.line("\(field.name) = reader.null() ? .some(.clear) : \(read).map { .set($0) }")
                                } else {
                                    writer.line("\(field.name) = \(read)")
                                }
                                writer.line("return \(field.name) != nil")
                            }
                        }
                        writer.line("default:")
                        writer.indented { writer in writer.line("return false") }
                    }
                }
                let required = requiredFields.map { "let \($0.name)" }
                writer.line("guard " + (["read"] + required).joined(separator: ", ") + " else { return nil }")
                writer.wrapped("self.init", initializerArguments(updateDefault: ".unchanged"), "")
            }
        }
    }

    /// An expression reading a value of `shape` from `reader`, `nil` at anything else.
    private func readExpression(_ shape: Shape) -> String {
        switch shape {
        case .string: "reader.string()"
        case .int: "reader.int64().flatMap { Int(exactly: $0) }"
        case .int64: "reader.int64()"
        case .bool: "reader.bool()"
        case .double: "reader.double()"
        case .date: "reader.date()"
        case .jsonObject: "reader.jsonObject()"
        case .message(let name): "\(name)(json: &reader)"
        case .text(_, let make): "reader.string().flatMap { \(make) }"
        case .array(let element): "reader.array { reader in \(readExpression(element)) }"
        }
    }
}

extension FieldType {
    /// The type itself; for a field update, the type of its value.
    var innermostOptional: FieldType {
        if case .update(let value) = self { return value }
        return self
    }
}
