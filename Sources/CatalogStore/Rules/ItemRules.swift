import CatalogAPI
import Foundation

/// Validation and normalization of item fields and list paging, free of any store.
///
/// Every failure is INVALID_ARGUMENT `invalidField` naming the request field (`title`,
/// `price.amount`, `pageSize`, …).
///
/// Limits (`TextLimit`, checked in bytes first, after trimming): `title` 1 to 200 characters
/// and 800 bytes of UTF-8; `summary` 5,000 characters and 20,000 bytes; `level` and `duration`
/// 100 characters and 400 bytes; `imageURL` 2,048 bytes; `price.amount` 32 bytes as sent;
/// `price.currency` 3 letters.
///
/// Decisions where the contract leaves room:
/// - `title` is trimmed, without control characters.
/// - `summary` (line feeds and tabs allowed), `level` and `duration` (no control characters) are
///   trimmed. Empty after trimming means absent on create; on update it is passed to the store
///   as `""`, the only way `ItemChanges` can ask for the field to be cleared.
/// - `price.amount` is a non-negative decimal with at most 2 decimals and 12 integer digits
///   (`"990"`, `"990.5"`, `"990.00"`, `"0.99"`; no sign, exponent or white space), stored in
///   canonical form with exactly 2 decimals and no leading zeros (`"0990.5"` → `"990.50"`).
/// - `price.currency` is exactly 3 upper-case ASCII letters (`"eur"` is invalid).
/// - `imageURL` is an absolute `http` or `https` URL with a host, without white space or control
///   characters. On update `""` is passed on as a clear.
/// - `pageSize` absent is 50; outside 1...500 is invalid.
public enum ItemRules {
    public static let titleLimit = TextLimit(characters: 200, bytes: 800)
    public static let summaryLimit = TextLimit(characters: 5_000, bytes: 20_000)
    /// `level` and `duration`.
    public static let shortTextLimit = TextLimit(characters: 100, bytes: 400)
    /// An image URL (its characters never outnumber its bytes).
    public static let imageURLLimit = TextLimit(characters: 2_048, bytes: 2_048)
    /// A price's amount as sent, leading zeros included (ASCII only).
    public static let amountLimit = TextLimit(characters: 32, bytes: 32)
    public static let maxAmountIntegerDigits = 12
    public static let defaultPageSize = 50
    public static let pageSizes = 1...500

    /// A trimmed, checked title.
    public static func title(_ raw: String, field: String = "title") throws(CatalogError) -> String {
        try TextRules.text(raw, field: field, limit: titleLimit, required: true)
    }

    /// A trimmed summary (multi-line text); empty after trimming is `""`.
    public static func summary(_ raw: String, field: String = "summary") throws(CatalogError) -> String {
        try TextRules.text(raw, field: field, limit: summaryLimit, allowing: ["\n", "\t"])
    }

    /// A trimmed one-line text such as `level` or `duration`; empty after trimming is `""`.
    public static func shortText(_ raw: String, field: String) throws(CatalogError) -> String {
        try TextRules.text(raw, field: field, limit: shortTextLimit)
    }

    /// A checked price with its amount in canonical form.
    public static func price(_ raw: Money, field: String = "price") throws(CatalogError) -> Money {
        Money(amount: try amount(raw.amount, field: "\(field).amount"), currency: try currency(raw.currency, field: "\(field).currency"))
    }

    /// A non-negative decimal amount as `"<integer>.<2 decimals>"`.
    public static func amount(_ raw: String, field: String = "price.amount") throws(CatalogError) -> String {
        if raw.utf8.count > amountLimit.bytes {
            throw .invalidField(field, "must be at most \(amountLimit.bytes) bytes, not \(raw.utf8.count)")
        }
        let invalid = CatalogError.invalidField(
            field, "must be a non-negative decimal with at most 2 decimals, such as \"990.00\", not \(TextRules.quoted(raw))")
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
        let bytes = raw.utf8
        guard bytes.count == 3, bytes.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else {
            throw .invalidField(field, "must be 3 upper-case letters such as EUR, not \(TextRules.quoted(raw))")
        }
        return raw
    }

    /// A checked absolute http(s) URL, as sent.
    public static func imageURL(_ raw: String, field: String = "imageURL") throws(CatalogError) -> String {
        let invalid = CatalogError.invalidField(field, "must be an absolute http or https URL")
        guard raw.utf8.count <= imageURLLimit.bytes else {
            throw .invalidField(field, "must be at most \(imageURLLimit.bytes) bytes of UTF-8, not \(raw.utf8.count)")
        }
        guard !raw.unicodeScalars.contains(where: { $0.properties.isWhitespace || TextRules.isControl($0) }),
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

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
