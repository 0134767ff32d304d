extension String {
    /// This text, safe to write to a terminal: each control character (C0, DEL and C1: the
    /// Unicode category Cc, so also ESC, which starts every escape sequence, and the line
    /// breaks) is shown as its code, `\u{1B}`, instead of reaching the terminal, where it
    /// could retitle the window, clear the screen or rewrite what was printed before.
    ///
    /// Whatever a server sends goes through it before `catalog` shows it to people; JSON and
    /// YAML output escape the same characters their own way.
    ///
    /// ```swift
    /// "Books\u{1B}]0;pwned\u{07}".terminalSafe   // Books\u{1B}]0;pwned\u{07}, as plain text
    /// ```
    package var terminalSafe: String {
        guard containsControlCharacters else { return self }
        var text = ""
        for scalar in unicodeScalars {
            if scalar.isControlCharacter {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                text += "\\u{" + (hex.count < 2 ? "0" : "") + hex + "}"
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    /// Whether the text holds a control character (C0, DEL or C1).
    package var containsControlCharacters: Bool {
        unicodeScalars.contains(where: \.isControlCharacter)
    }
}

extension Unicode.Scalar {
    /// C0 (U+0000 to U+001F), DEL (U+007F) or C1 (U+0080 to U+009F).
    var isControlCharacter: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value)
    }
}
