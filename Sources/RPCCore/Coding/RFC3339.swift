import Foundation

/// RFC 3339 UTC timestamps with whole seconds (`2026-01-23T10:00:00Z`), formatted without
/// Foundation's date formatters, which dominate the cost of encoding long lists.
enum RFC3339 {
    /// Formats `date` as `YYYY-MM-DDTHH:MM:SSZ`, rounding down to the second.
    static func format(_ date: Date) -> String {
        withUTF8(of: date) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with `date` as `format` writes it, in UTF-8, without allocating.
    static func withUTF8<Result>(of date: Date, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        // Days to civil date (H. Hinnant's algorithm, proleptic Gregorian calendar).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        guard (0...9999).contains(year) else {
            var text = date.ISO8601Format()
            return text.withUTF8(body)
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { text in
            @inline(__always)
            func put(_ value: Int64, digits: Int, at start: Int) {
                var rest = value
                for index in (start..<start + digits).reversed() {
                    text[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
            }
            put(year, digits: 4, at: 0)
            text[4] = UInt8(ascii: "-")
            put(month, digits: 2, at: 5)
            text[7] = UInt8(ascii: "-")
            put(day, digits: 2, at: 8)
            text[10] = UInt8(ascii: "T")
            put(secondOfDay / 3600, digits: 2, at: 11)
            text[13] = UInt8(ascii: ":")
            put(secondOfDay % 3600 / 60, digits: 2, at: 14)
            text[16] = UInt8(ascii: ":")
            put(secondOfDay % 60, digits: 2, at: 17)
            text[19] = UInt8(ascii: "Z")
            return body(UnsafeBufferPointer(text))
        }
    }
}
