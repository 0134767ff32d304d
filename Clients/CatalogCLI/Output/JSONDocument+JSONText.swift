extension JSONDocument {
    /// The document on one line, without spaces: one line of `-o ndjson`.
    package var compactJSON: String {
        var text = ""
        write(to: &text, indent: nil, level: 0)
        return text
    }

    /// The document indented by two spaces per level, keys in their order: `-o json`.
    package var prettyJSON: String {
        var text = ""
        write(to: &text, indent: "  ", level: 0)
        return text
    }

    private func write(to text: inout String, indent: String?, level: Int) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .number(let literal): text += literal
        case .string(let value): text += Self.quoted(value)
        case .array(let elements):
            writeContainer(to: &text, open: "[", close: "]", count: elements.count, indent: indent, level: level) { text, index in
                elements[index].write(to: &text, indent: indent, level: level + 1)
            }
        case .object(let members):
            writeContainer(to: &text, open: "{", close: "}", count: members.count, indent: indent, level: level) { text, index in
                text += Self.quoted(members[index].key)
                text += indent == nil ? ":" : ": "
                members[index].value.write(to: &text, indent: indent, level: level + 1)
            }
        }
    }

    private func writeContainer(
        to text: inout String, open: String, close: String, count: Int, indent: String?, level: Int,
        element: (inout String, Int) -> Void
    ) {
        text += open
        guard count > 0 else {
            text += close
            return
        }
        for index in 0..<count {
            if index > 0 { text += "," }
            if let indent { text += "\n" + String(repeating: indent, count: level + 1) }
            element(&text, index)
        }
        if let indent { text += "\n" + String(repeating: indent, count: level) }
        text += close
    }

    /// `value` as a JSON string literal: quotes, backslashes and control characters (C0, DEL
    /// and C1, so that none reaches a terminal) escaped, everything else (including non-ASCII)
    /// as it is.
    static func quoted(_ value: String) -> String {
        var text = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            default:
                if scalar.isControlCharacter {
                    let hex = String(scalar.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        return text + "\""
    }
}
