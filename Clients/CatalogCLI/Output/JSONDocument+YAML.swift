extension JSONDocument {
    /// The document as a YAML 1.2 block (`-o yaml`), ending with a newline.
    ///
    /// Strings stay strings for any YAML reader: a string is written plain only when it
    /// starts with a letter and holds nothing but letters, digits, spaces and `_-./()'`,
    /// and is not a word YAML 1.1 reads as a boolean or null (`yes`, `off`, `null`, …);
    /// anything else (`#9C27B0`, `990.00`, timestamps) is double-quoted with JSON escapes.
    package var yaml: String {
        var lines: [String] = []
        switch self {
        case .array(let elements) where !elements.isEmpty:
            Self.appendSequence(elements, indent: "", to: &lines)
        case .object(let members) where !members.isEmpty:
            Self.appendMapping(members, indent: "", to: &lines)
        default:
            lines.append(inlineYAML)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A scalar or an empty collection on one line.
    private var inlineYAML: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number(let literal): literal
        case .string(let value): Self.yamlString(value)
        case .array: "[]"
        case .object: "{}"
        }
    }

    /// Whether the value takes lines of its own below its key or dash.
    private var isBlock: Bool {
        switch self {
        case .array(let elements): !elements.isEmpty
        case .object(let members): !members.isEmpty
        default: false
        }
    }

    private static func appendMapping(_ members: [Member], indent: String, to lines: inout [String]) {
        for member in members {
            let key = yamlString(member.key)
            if member.value.isBlock {
                lines.append("\(indent)\(key):")
                member.value.appendBlock(indent: indent + "  ", to: &lines)
            } else {
                lines.append("\(indent)\(key): \(member.value.inlineYAML)")
            }
        }
    }

    private static func appendSequence(_ elements: [JSONDocument], indent: String, to lines: inout [String]) {
        for element in elements {
            guard element.isBlock else {
                lines.append("\(indent)- \(element.inlineYAML)")
                continue
            }
            // The first line of the nested block goes after the dash; the rest align with it.
            var nested: [String] = []
            element.appendBlock(indent: indent + "  ", to: &nested)
            let first = nested[0].dropFirst(indent.count + 2)
            lines.append("\(indent)- \(first)")
            lines.append(contentsOf: nested.dropFirst())
        }
    }

    private func appendBlock(indent: String, to lines: inout [String]) {
        switch self {
        case .array(let elements): Self.appendSequence(elements, indent: indent, to: &lines)
        case .object(let members): Self.appendMapping(members, indent: indent, to: &lines)
        default: lines.append(indent + inlineYAML)
        }
    }

    private static let reservedWords: Set<String> = [
        "true", "false", "yes", "no", "on", "off", "y", "n", "null", "nan", "inf",
    ]

    private static func yamlString(_ value: String) -> String {
        guard let first = value.first, first.isLetter, value.last != " ",
            !reservedWords.contains(value.lowercased()),
            value.allSatisfy({ $0.isLetter || $0.isNumber || " _-./()'".contains($0) }),
            !value.contains("  ")
        else { return quoted(value) }
        return value
    }
}
