import Foundation

/// Validation and normalization of category fields (contract §3), free of any store.
///
/// Every failure is INVALID_ARGUMENT `invalidField` naming the request field, e.g. `name`
/// or, in an import, `categories[2].color`.
///
/// Decisions where the contract leaves room:
/// - "Control characters" are the scalars of general category `Cc` (C0, DEL, C1). Format
///   characters (`Cf`) are allowed, because emoji sequences need ZERO WIDTH JOINER.
/// - The display name keeps the characters as they were sent (only trimmed); only the slug is
///   NFC. White space inside the name is kept; in the slug each run becomes one `_`.
/// - A colour is exactly `#` and six hex digits, any case, with no surrounding white space.
/// - An icon is never lower-cased for the caller: `Sparkles` is invalid, not `sparkles`.
///   An empty icon means "no icon": absent on create and import, cleared on update.
public enum CategoryRules {
    /// The longest name, in grapheme clusters.
    public static let maxNameLength = 50
    /// The longest icon name.
    public static let maxIconLength = 64

    /// A trimmed, checked name and its slug.
    public static func name(_ raw: String, field: String = "name") throws(CatalogError) -> CategoryName {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty {
            throw .invalidField(field, "must not be empty")
        }
        if name.count > maxNameLength {
            throw .invalidField(field, "must be at most \(maxNameLength) characters, not \(name.count)")
        }
        if TextRules.containsControlCharacter(name) {
            throw .invalidField(field, "must not contain control characters")
        }
        return CategoryName(name: name, slug: slug(for: name))
    }

    /// The normalized form of a name: lower-cased, each run of white space as one `_`, NFC.
    ///
    /// Stores may use it to fold a search text the same way as the names.
    public static func slug(for name: String) -> String {
        var slug = ""
        var inWhiteSpace = false
        for character in name.precomposedStringWithCanonicalMapping.lowercased() {
            if character.isWhitespace {
                if !inWhiteSpace { slug.append("_") }
                inWhiteSpace = true
            } else {
                slug.append(character)
                inWhiteSpace = false
            }
        }
        // Lower-casing may decompose (e.g. "İ"), so normalize once more at the end.
        return slug.precomposedStringWithCanonicalMapping
    }

    /// `#RRGGBB` in upper case.
    public static func color(_ raw: String, field: String = "color") throws(CatalogError) -> String {
        let bytes = Array(raw.utf8)
        guard bytes.count == 7, bytes[0] == UInt8(ascii: "#"), bytes.dropFirst().allSatisfy(isHexDigit) else {
            throw .invalidField(field, "must be #RRGGBB (six hexadecimal digits), not '\(raw)'")
        }
        return raw.uppercased()
    }

    /// A checked icon name, or `nil` for the empty string ("no icon").
    public static func icon(_ raw: String, field: String = "icon") throws(CatalogError) -> String? {
        if raw.isEmpty { return nil }
        let bytes = Array(raw.utf8)
        guard bytes.count <= maxIconLength, bytes.allSatisfy(isIconByte) else {
            throw .invalidField(field, "must be at most \(maxIconLength) characters of a-z, 0-9 and '.'")
        }
        return raw
    }

    /// A checked position (0 or more; the upper bound depends on the store).
    public static func position(_ raw: Int, field: String) throws(CatalogError) -> Int {
        guard raw >= 0 else { throw .invalidField(field, "must be 0 or more, not \(raw)") }
        return raw
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }

    private static func isIconByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."): true
        default: false
        }
    }
}

/// Checks shared by category and item text fields.
enum TextRules {
    /// Whether `text` holds a scalar of general category `Cc`, other than those in `allowing`.
    static func containsControlCharacter(_ text: String, allowing allowed: Set<Unicode.Scalar> = []) -> Bool {
        text.unicodeScalars.contains { $0.properties.generalCategory == .control && !allowed.contains($0) }
    }
}
