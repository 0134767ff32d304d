import CatalogAPI
import Foundation

/// Validation and normalization of item fields and list paging, free of any store.
///
/// Every failure is INVALID_ARGUMENT `invalidField` naming the request field (`title`,
/// `price.amount`, `pageSize`, …).
///
/// Decisions where the contract leaves room:
/// - `title` is trimmed, 1 to 200 grapheme clusters, without control characters.
/// - `summary` (up to 5,000 characters; line feeds and tabs allowed), `level` and `duration`
///   (up to 100 characters each, no control characters) are trimmed. Empty after trimming
///   means absent on create; on update it is passed to the store as `""`, the only way
///   `ItemChanges` can ask for the field to be cleared.
/// - `price.amount` is a non-negative decimal with at most 2 decimals and 12 integer digits
///   (`"990"`, `"990.5"`, `"990.00"`, `"0.99"`; no sign, exponent or white space), stored in
///   canonical form with exactly 2 decimals and no leading zeros (`"0990.5"` → `"990.50"`).
/// - `price.currency` is exactly 3 upper-case ASCII letters (`"eur"` is invalid).
/// - `imageURL` is an absolute `http` or `https` URL with a host, at most 2,048 bytes, without
///   white space or control characters. On update `""` is passed on as a clear.
/// - `pageSize` absent is 50; outside 1...500 is invalid.
public enum ItemRules {
    public static let maxTitleLength = 200
    public static let maxSummaryLength = 5_000
    public static let maxShortTextLength = 100
    public static let maxImageURLLength = 2_048
    public static let maxAmountIntegerDigits = 12
    public static let defaultPageSize = 50
    public static let pageSizes = 1...500

    /// A trimmed, checked title.
    public static func title(_ raw: String, field: String = "title") throws(CatalogError) -> String {
        let title = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if title.isEmpty { throw .invalidField(field, "must not be empty") }
        if title.count > maxTitleLength {
            throw .invalidField(field, "must be at most \(maxTitleLength) characters, not \(title.count)")
        }
        if TextRules.containsControlCharacter(title) {
            throw .invalidField(field, "must not contain control characters")
        }
        return title
    }

    /// A trimmed summary (multi-line text); empty after trimming is `""`.
    public static func summary(_ raw: String, field: String = "summary") throws(CatalogError) -> String {
        try text(raw, field: field, maxLength: maxSummaryLength, allowing: ["\n", "\t"])
    }

    /// A trimmed one-line text such as `level` or `duration`; empty after trimming is `""`.
    public static func shortText(_ raw: String, field: String) throws(CatalogError) -> String {
        try text(raw, field: field, maxLength: maxShortTextLength, allowing: [])
    }

    /// A checked price with its amount in canonical form.
    public static func price(_ raw: Money, field: String = "price") throws(CatalogError) -> Money {
        Money(amount: try amount(raw.amount, field: "\(field).amount"), currency: try currency(raw.currency, field: "\(field).currency"))
    }

    /// A non-negative decimal amount as `"<integer>.<2 decimals>"`.
    public static func amount(_ raw: String, field: String = "price.amount") throws(CatalogError) -> String {
        let invalid = CatalogError.invalidField(field, "must be a non-negative decimal with at most 2 decimals, such as \"990.00\", not '\(raw)'")
        let parts = raw.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integer = parts[0]
        let fraction = parts.count == 2 ? parts[1] : ""
        guard !integer.isEmpty, integer.utf8.allSatisfy(isDigit), fraction.utf8.allSatisfy(isDigit), fraction.utf8.count <= 2 else {
            throw invalid
        }
        if parts.count == 2, fraction.isEmpty { throw invalid }
        let significant = integer.drop { $0 == "0" }
        if significant.count > maxAmountIntegerDigits {
            throw .invalidField(field, "must have at most \(maxAmountIntegerDigits) integer digits")
        }
        let paddedFraction = fraction + String(repeating: "0", count: 2 - fraction.count)
        return "\(significant.isEmpty ? "0" : significant).\(paddedFraction)"
    }

    /// An ISO 4217-shaped currency code: 3 upper-case ASCII letters.
    public static func currency(_ raw: String, field: String = "price.currency") throws(CatalogError) -> String {
        let bytes = Array(raw.utf8)
        guard bytes.count == 3, bytes.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else {
            throw .invalidField(field, "must be 3 upper-case letters such as EUR, not '\(raw)'")
        }
        return raw
    }

    /// A checked absolute http(s) URL, as sent.
    public static func imageURL(_ raw: String, field: String = "imageURL") throws(CatalogError) -> String {
        let invalid = CatalogError.invalidField(field, "must be an absolute http or https URL")
        guard raw.utf8.count <= maxImageURLLength else {
            throw .invalidField(field, "must be at most \(maxImageURLLength) bytes")
        }
        guard !raw.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control }),
            let url = URL(string: raw),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else { throw invalid }
        return raw
    }

    /// The page size, 50 when absent.
    public static func pageSize(_ raw: Int?, field: String = "pageSize") throws(CatalogError) -> Int {
        guard let raw else { return defaultPageSize }
        guard pageSizes.contains(raw) else {
            throw .invalidField(field, "must be between \(pageSizes.lowerBound) and \(pageSizes.upperBound), not \(raw)")
        }
        return raw
    }

    private static func text(_ raw: String, field: String, maxLength: Int, allowing allowed: Set<Unicode.Scalar>) throws(CatalogError) -> String {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.count > maxLength {
            throw .invalidField(field, "must be at most \(maxLength) characters, not \(text.count)")
        }
        if TextRules.containsControlCharacter(text, allowing: allowed) {
            throw .invalidField(field, "must not contain control characters")
        }
        return text
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
