import Foundation

/// Validation and normalization of category fields (contract §3), free of any store.
///
/// Every failure is INVALID_ARGUMENT `invalidField` naming the request field, e.g. `name`
/// or, in an import, `categories[2].color`.
///
/// Limits (`TextLimit`, checked in bytes first): a name is 1 to 50 characters and at most 400
/// bytes of UTF-8 (contract §3); an icon at most 64 characters of `[a-z0-9.]`, so 64 bytes; a
/// colour exactly 7 bytes.
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
    /// A name, once trimmed (and at least 1 character).
    public static let nameLimit = TextLimit(characters: 50, bytes: 400)
    /// An icon name (ASCII only, so one byte a character).
    public static let iconLimit = TextLimit(characters: 64, bytes: 64)

    /// A trimmed, checked name and its slug.
    public static func name(_ raw: String, field: String = "name") throws(CatalogError) -> CategoryName {
        let name = try TextRules.text(raw, field: field, limit: nameLimit, required: true)
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
        let bytes = raw.utf8
        guard bytes.count == 7, bytes.first == UInt8(ascii: "#"), bytes.dropFirst().allSatisfy(isHexDigit) else {
            throw .invalidField(field, "must be #RRGGBB (six hexadecimal digits), not \(TextRules.quoted(raw))")
        }
        return raw.uppercased()
    }

    /// A checked icon name, or `nil` for the empty string ("no icon").
    public static func icon(_ raw: String, field: String = "icon") throws(CatalogError) -> String? {
        if raw.isEmpty { return nil }
        let bytes = raw.utf8
        guard bytes.count <= iconLimit.bytes, bytes.allSatisfy(isIconByte) else {
            throw .invalidField(field, "must be at most \(iconLimit.characters) characters of a-z, 0-9 and '.'")
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
