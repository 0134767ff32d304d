import Foundation

/// Swift source text built line by line, indented by four spaces a level.
struct SourceWriter {
    private(set) var text = ""
    private var level = 0

    mutating func line(_ line: String = "") {
        text += line.isEmpty ? "\n" : String(repeating: "    ", count: level) + line + "\n"
    }

    /// `opening`, the lines `body` writes one level deeper, then `closing`.
    mutating func block(_ opening: String, closing: String = "}", _ body: (inout SourceWriter) -> Void) {
        line(opening)
        level += 1
        body(&self)
        level -= 1
        line(closing)
    }

    /// `head`, then the cases `body` writes at the same level (as Swift indents a `switch`),
    /// then `}`.
    mutating func switchBlock(_ head: String, _ body: (inout SourceWriter) -> Void) {
        line(head)
        body(&self)
        line("}")
    }

    /// The lines `body` writes, one level deeper.
    mutating func indented(_ body: (inout SourceWriter) -> Void) {
        level += 1
        body(&self)
        level -= 1
    }

    mutating func doc(_ lines: [String]) {
        for text in lines { line(text.isEmpty ? "///" : "/// \(text)") }
    }

    /// `head(` the items `)tail` on one line when it fits in 120 columns, else the items packed
    /// on lines of their own one level deeper.
    mutating func wrapped(_ head: String, _ items: [String], _ tail: String) {
        let single = head + "(" + items.joined(separator: ", ") + ")" + tail
        if single.count + level * 4 <= 120 {
            line(single)
            return
        }
        line(head + "(")
        level += 1
        var current = ""
        for item in items {
            let candidate = current.isEmpty ? item + "," : current + " " + item + ","
            if !current.isEmpty, candidate.count + level * 4 > 120 {
                line(current)
                current = item + ","
            } else {
                current = candidate
            }
        }
        line(String(current.dropLast()))
        level -= 1
        line(")" + tail)
    }
}

/// `text` as a Swift string literal.
func swiftLiteral(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}
