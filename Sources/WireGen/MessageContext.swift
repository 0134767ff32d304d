/// One message, with what its fields' named types are: what the JSON, CBOR and schema
/// writers need.
struct MessageContext {
    let message: Message
    /// `CategoryStats.Entry`.
    let qualified: String
    /// The enclosing messages and this one, to resolve the names of field types.
    let scope: [String]
    let table: TypeTable

    /// How a value of a field type is treated, its name resolved.
    indirect enum Shape {
        case string, int, int64, bool, double, date, jsonObject
        case message(String)
        /// A string-valued type: `make` turns wire text into a value, `nil` refused.
        case text(String, make: String)
        case array(Shape)
    }

    /// The shape of `type`; `knownOnly` refuses the values an open enum does not know.
    func shape(_ type: FieldType, knownOnly: Bool) -> Shape {
        switch type {
        case .string: .string
        case .int: .int
        case .int64: .int64
        case .bool: .bool
        case .double: .double
        case .date: .date
        case .jsonObject: .jsonObject
        case .array(let element): .array(shape(element, knownOnly: knownOnly))
        case .update(let value): shape(value, knownOnly: knownOnly)
        case .named(let name):
            switch table.kind(of: name, in: scope)! {
            case .message: .message(name)
            case .enumeration(isOpen: true) where !knownOnly: .text(name, make: "\(name).wireValue($0)")
            case .enumeration, .externString: .text(name, make: "\(name)(rawValue: $0)")
            }
        }
    }

    func shape(of field: Field) -> Shape { shape(field.type, knownOnly: field.knownOnly) }

    func isUpdate(_ field: Field) -> Bool {
        if case .update = field.type { return true }
        return false
    }

    /// The member or map entry of `field`, in either codec: `key`, then what `value` writes
    /// of the value (an expression and its shape). An absent optional writes nothing; a field
    /// update writes nothing when unchanged and `key` then `null` when cleared.
    func writeEntry(
        _ field: Field, key: String, null: String, _ writer: inout SourceWriter,
        value: (String, Shape, inout SourceWriter) -> Void
    ) {
        let shape = shape(of: field)
        if isUpdate(field) {
            writer.switchBlock("switch \(field.name) {") { writer in
                writer.line("case .unchanged: break")
                writer.line("case .clear:")
                writer.indented { writer in
                    writer.line(key)
                    writer.line(null)
                }
                writer.line("case .set(let value):")
                writer.indented { writer in
                    writer.line(key)
                    value("value", shape, &writer)
                }
            }
        } else if field.isOptional {
            writer.block("if let \(field.name) {") { writer in
                writer.line(key)
                value(field.name, shape, &writer)
            }
        } else {
            writer.line(key)
            value(field.name, shape, &writer)
        }
    }

    /// The fields a message cannot do without: neither optional nor updates.
    var requiredFields: [Field] { message.fields.filter { !$0.isOptional && !isUpdate($0) } }

    /// The arguments of the memberwise initializer, from local variables of the fields' names.
    func initializerArguments(updateDefault: String?) -> [String] {
        message.fields.map { field in
            if isUpdate(field), let updateDefault { return "\(field.name): \(field.name) ?? \(updateDefault)" }
            return "\(field.name): \(field.name)"
        }
    }
}

extension Array {
    /// The fields in the bytewise order of their names' CBOR encodings: shorter first, then
    /// by bytes (RFC 8949 §4.2.1).
    func sortedForCBOR() -> [Field] where Element == Field {
        sorted { lhs, rhs in
            let (left, right) = ([UInt8](lhs.name.utf8), [UInt8](rhs.name.utf8))
            return left.count != right.count ? left.count < right.count : left.lexicographicallyPrecedes(right)
        }
    }
}
