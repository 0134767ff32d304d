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

    /// The date of `text` when it is exactly in the form `format` writes (a valid date and time
    /// of day, seconds below 60); `nil` for anything else, which Foundation's parser may still
    /// read.
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    /// `parse(_:)` of UTF-8 bytes.
    static func parse(_ utf8: UnsafeRawBufferPointer) -> Date? {
        guard utf8.count == 20, utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-"), utf8[10] == UInt8(ascii: "T"),
            utf8[13] == UInt8(ascii: ":"), utf8[16] == UInt8(ascii: ":"), utf8[19] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ start: Int, _ digits: Int) -> Int64? {
            var value: Int64 = 0
            for index in start..<start + digits {
                let digit = utf8[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
            let minute = number(14, 2), let second = number(17, 2),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24, minute < 60, second < 60
        else { return nil }
        // Civil date to days (H. Hinnant's algorithm), the inverse of `withUTF8`'s.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3600 + minute * 60 + second))
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
