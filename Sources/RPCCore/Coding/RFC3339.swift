import Foundation

/// RFC 3339 UTC timestamps with whole seconds (`2026-01-23T10:00:00Z`), formatted without
/// Foundation's date formatters, which dominate the cost of encoding long lists.
enum RFC3339 {
    /// Formats `date` as `YYYY-MM-DDTHH:MM:SSZ`, rounding down to the second.
    static func format(_ date: Date) -> String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(20)
        append(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `date` as `format` writes it, as UTF-8.
    static func append(_ date: Date, to bytes: inout [UInt8]) {
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
            bytes.append(contentsOf: date.ISO8601Format().utf8)
            return
        }
        func append(_ value: Int64, digits: Int) {
            var divisor: Int64 = 1
            for _ in 1..<digits { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        append(year, digits: 4)
        bytes.append(UInt8(ascii: "-"))
        append(month, digits: 2)
        bytes.append(UInt8(ascii: "-"))
        append(day, digits: 2)
        bytes.append(UInt8(ascii: "T"))
        append(secondOfDay / 3600, digits: 2)
        bytes.append(UInt8(ascii: ":"))
        append(secondOfDay % 3600 / 60, digits: 2)
        bytes.append(UInt8(ascii: ":"))
        append(secondOfDay % 60, digits: 2)
        bytes.append(UInt8(ascii: "Z"))
    }
}
