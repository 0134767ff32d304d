import Foundation

/// A CSV document (RFC 4180): a header row naming the columns, then records. Fields may be
/// quoted (`"a, b"`, `"say ""hi"""`), quoted fields may hold line breaks, and lines end with
/// CRLF or LF.
package struct CSVTable: Sendable {
    /// The header row's names, trimmed.
    package let columns: [String]
    /// The records, each with the line it starts on (the header is line 1).
    package let records: [(line: Int, fields: [String])]

    /// Reads `text`.
    ///
    /// - Throws: ``CLIFailure`` (usage) for a quote left open, a character after a closing
    ///   quote, or no header row.
    package init(_ text: String) throws(CLIFailure) {
        var rows: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var fieldWasQuoted = false
        var line = 1
        var rowLine = 1
        var characters = text.makeIterator()
        var pending: Character? = nil
        func next() -> Character? {
            if let held = pending {
                pending = nil
                return held
            }
            return characters.next()
        }
        while let character = next() {
            if quoted {
                if character == "\"" {
                    if let following = next() {
                        if following == "\"" {
                            field.append("\"")
                        } else {
                            quoted = false
                            pending = following
                        }
                    } else {
                        quoted = false
                    }
                } else {
                    if character == "\n" || character == "\r\n" { line += 1 }
                    field.append(character)
                }
                continue
            }
            switch character {
            case "\"" where field.isEmpty && !fieldWasQuoted:
                quoted = true
                fieldWasQuoted = true
            case "\"":
                throw .usage("line \(line): a quote inside an unquoted field (quote the whole field, doubling its quotes)")
            case ",":
                fields.append(field)
                field = ""
                fieldWasQuoted = false
            case "\n", "\r\n", "\r":
                fields.append(field)
                if fields != [""] { rows.append((rowLine, fields)) }
                fields = []
                field = ""
                fieldWasQuoted = false
                line += 1
                rowLine = line
            default:
                if fieldWasQuoted { throw .usage("line \(line): a character after a field's closing quote") }
                field.append(character)
            }
        }
        if quoted { throw .usage("line \(rowLine): a quoted field is never closed") }
        if !field.isEmpty || !fields.isEmpty || fieldWasQuoted {
            fields.append(field)
            rows.append((rowLine, fields))
        }
        guard let header = rows.first else { throw .usage("the CSV document has no header row") }
        columns = header.fields.map { $0.trimmingCharacters(in: .whitespaces) }
        records = Array(rows.dropFirst())
    }
}
