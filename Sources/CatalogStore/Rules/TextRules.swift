import Foundation

/// The size limit of a stored text: at most `characters` characters (grapheme clusters) and at
/// most `bytes` bytes of UTF-8. Both hold: one character may take one byte or thousands (a
/// letter followed by combining marks is one character).
public struct TextLimit: Sendable, Hashable {
    public let characters: Int
    public let bytes: Int

    public init(characters: Int, bytes: Int) {
        self.characters = characters
        self.bytes = bytes
    }
}

/// Checks shared by every text field a client sends.
public enum TextRules {
    /// A search query (`query` of Catalog.ListItems and Categories.List).
    public static let queryLimit = TextLimit(characters: 200, bytes: 800)

    /// A trimmed search query, or `nil` when it is absent or empty after trimming.
    public static func query(_ raw: String?, field: String = "query") throws(CatalogError) -> String? {
        guard let raw else { return nil }
        let query = try text(raw, field: field, limit: queryLimit)
        return query.isEmpty ? nil : query
    }

    /// `raw` trimmed of Unicode white space at both ends, within `limit`, without control
    /// characters (but those in `allowed`); empty only when not `required`.
    ///
    /// The bytes are counted first, in constant time, so that an oversized text is refused
    /// before its characters are counted or anything else walks it.
    static func text(
        _ raw: String, field: String, limit: TextLimit, required: Bool = false, allowing allowed: Set<Unicode.Scalar> = []
    ) throws(CatalogError) -> String {
        let text = trimmed(raw)
        if required && text.isEmpty { throw .invalidField(field, "must not be empty") }
        let bytes = text.utf8.count
        if bytes > limit.bytes {
            throw .invalidField(field, "must be at most \(limit.bytes) bytes of UTF-8, not \(bytes)")
        }
        let characters = text.count
        if characters > limit.characters {
            throw .invalidField(field, "must be at most \(limit.characters) characters, not \(characters)")
        }
        if containsControlCharacter(text, allowing: allowed) {
            throw .invalidField(field, "must not contain control characters")
        }
        return String(text)
    }

    /// `raw` without the white space (`CharacterSet.whitespacesAndNewlines`) at its ends; walks
    /// only the scalars it drops and the two it stops at.
    package static func trimmed(_ raw: String) -> Substring {
        let scalars = raw.unicodeScalars
        let whiteSpace = CharacterSet.whitespacesAndNewlines
        guard let first = scalars.firstIndex(where: { !whiteSpace.contains($0) }),
            let last = scalars.lastIndex(where: { !whiteSpace.contains($0) })
        else { return raw[raw.endIndex...] }
        return Substring(scalars[first...last])
    }

    /// Whether `text` holds a scalar of general category `Cc`, other than those in `allowing`.
    static func containsControlCharacter(_ text: some StringProtocol, allowing allowed: Set<Unicode.Scalar> = []) -> Bool {
        text.unicodeScalars.contains { isControl($0) && !allowed.contains($0) }
    }

    /// Whether `scalar` is of Unicode's general category Cc (control), which is exactly
    /// U+0000–U+001F and U+007F–U+009F: compared, not looked up in the property tables.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// `raw` for an error message: at most its first 32 scalars, then `…`.
    static func quoted(_ raw: String) -> String {
        let shown = raw.unicodeScalars.prefix(32)
        return "'\(String(String.UnicodeScalarView(shown)))\(shown.endIndex < raw.unicodeScalars.endIndex ? "…" : "")'"
    }
}
