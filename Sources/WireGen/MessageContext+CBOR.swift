extension MessageContext {
    func writeCBORWritable(_ writer: inout SourceWriter) {
        writer.block("extension \(qualified): CBORWritable {") { writer in
            writer.block("package func writeCBOR(to writer: inout CBORWriter) {") { writer in
                let sometimes = message.fields.filter { $0.isOptional || isUpdate($0) }
                let always = message.fields.count - sometimes.count
                if sometimes.isEmpty {
                    writer.line("writer.writeMapHeader(count: \(always))")
                } else {
                    writer.line("var count = \(always)")
                    for field in sometimes {
                        writer.line("if \(field.name) != \(isUpdate(field) ? ".unchanged" : "nil") { count += 1 }")
                    }
                    writer.line("writer.writeMapHeader(count: count)")
                }
                for field in message.fields.sortedForCBOR() {
                    writeEntry(field, key: "writer.writeKey(\"\(field.name)\")", null: "writer.writeNull()", &writer) { value, shape, writer in
                        writeValue(value, shape, depth: 0, &writer)
                    }
                }
            }
        }
    }

    private func writeValue(_ value: String, _ shape: Shape, depth: Int, _ writer: inout SourceWriter) {
        switch shape {
        case .string: writer.line("writer.writeText(\(value))")
        case .int, .int64: writer.line("writer.writeInteger(\(value))")
        case .bool: writer.line("writer.writeBool(\(value))")
        case .double: writer.line("writer.writeDouble(\(value))")
        case .date: writer.line("writer.writeDate(\(value))")
        case .jsonObject: writer.line("writer.writeJSONObject(\(value))")
        case .text: writer.line("writer.writeText(\(value).rawValue)")
        case .message: writer.line("\(value).writeCBOR(to: &writer)")
        case .array(let element):
            let elementName = depth == 0 ? "element" : "element\(depth)"
            writer.line("writer.writeArrayHeader(count: \(value).count)")
            writer.block("for \(elementName) in \(value) {") { writer in writeValue(elementName, element, depth: depth + 1, &writer) }
        }
    }

    func writeCBORReadable(_ writer: inout SourceWriter) {
        writer.block("extension \(qualified): CBORReadable {") { writer in
            writer.block("package init(cbor reader: inout CBORReader) throws(CBORMessageError) {") { writer in
                for field in message.fields {
                    if isUpdate(field) {
                        writer.line("var \(field.name): \(swiftType(field.type)) = .unchanged")
                    } else {
                        writer.line("var \(field.name): \(swiftType(field.type))?")
                    }
                }
                writer.line("var map = try reader.beginMap()")
                writer.block("while let key = try reader.nextKey(&map) {") { writer in
                    writer.switchBlock("switch key.count {") { writer in
                        for field in message.fields.sortedForCBOR() { readEntry(field, &writer) }
                        writer.line("default:")
                        writer.indented { writer in writer.line("try reader.skipValue(of: key, in: &map)") }
                    }
                }
                for field in requiredFields {
                    writer.line("guard let \(field.name) else { throw CBORMessageError(.missing).within(\"\(field.name)\") }")
                }
                writer.wrapped("self.init", initializerArguments(updateDefault: nil), "")
            }
        }
    }

    private func readEntry(_ field: Field, _ writer: inout SourceWriter) {
        let name = field.name
        let index = message.fields.firstIndex { $0.name == name }!
        writer.line("case \(name.utf8.count) where reader.key(key, is: \"\(name)\"):")
        writer.indented { writer in
            writer.line("try map.see(\(index), \"\(name)\")")
            let read = readExpression(shape(of: field))
            let assignment =
                if isUpdate(field) {
                    "\(name) = try reader.readNull() ? .clear : .set(\(read))"
                } else if field.isOptional {
                    "\(name) = try reader.readNull() ? nil : \(read)"
                } else {
                    "\(name) = try \(read)"
                }
            writer.line("do {")
            writer.indented { writer in writer.line(assignment) }
            writer.line("} catch {")
            writer.indented { writer in writer.line("throw error.within(\"\(name)\")") }
            writer.line("}")
        }
    }

    /// An expression (under `try`) reading a value of `shape` from `reader`.
    private func readExpression(_ shape: Shape) -> String {
        switch shape {
        case .string: "reader.readString()"
        case .int: "reader.readInt()"
        case .int64: "reader.readInt64()"
        case .bool: "reader.readBool()"
        case .double: "reader.readDouble()"
        case .date: "reader.readDate()"
        case .jsonObject: "reader.readJSONObject()"
        case .message(let name): "\(name)(cbor: &reader)"
        case .text(let name, let make): "reader.readEnum(\(name).self) { \(make) }"
        case .array(let element):
            "reader.readArray { (reader: inout CBORReader) throws(CBORMessageError) in try \(readExpression(element)) }"
        }
    }
}
