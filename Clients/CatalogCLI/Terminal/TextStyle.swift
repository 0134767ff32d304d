/// ANSI styling of text for one output stream; does nothing when colours are off there.
///
/// ```swift
/// let style = TextStyle(enabled: true)
/// style.bold("NAME")                 // "\u{1B}[1mNAME\u{1B}[0m"
/// style.color(hex: "#9C27B0", "●")  // a purple dot on 24-bit terminals
/// ```
package struct TextStyle: Sendable {
    /// Whether escape sequences are written at all.
    package let enabled: Bool

    package init(enabled: Bool) { self.enabled = enabled }

    package func bold(_ text: String) -> String { wrap(text, "1") }
    package func dim(_ text: String) -> String { wrap(text, "2") }
    package func red(_ text: String) -> String { wrap(text, "31") }
    package func green(_ text: String) -> String { wrap(text, "32") }
    package func yellow(_ text: String) -> String { wrap(text, "33") }
    package func cyan(_ text: String) -> String { wrap(text, "36") }

    /// `text` in the 24-bit colour `#RRGGBB`; unchanged when `hex` is not such a colour.
    package func color(hex: String, _ text: String) -> String {
        let digits = hex.hasPrefix("#") ? hex.dropFirst() : hex[...]
        guard digits.count == 6, let value = Int(digits, radix: 16) else { return text }
        return wrap(text, "38;2;\(value >> 16 & 0xFF);\(value >> 8 & 0xFF);\(value & 0xFF)")
    }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
