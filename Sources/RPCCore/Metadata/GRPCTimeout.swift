/// The `grpc-timeout` header: at most 8 digits and a unit (`H M S m u n`).
package enum GRPCTimeout {
    /// Parses a header value; `nil` when it is malformed.
    package static func parse(_ text: String) -> Duration? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 2, bytes.count <= 9 else { return nil }
        var amount: Int64 = 0
        for byte in bytes.dropLast() {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            amount = amount * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        switch bytes.last {
        case UInt8(ascii: "H"): return .seconds(amount * 3600)
        case UInt8(ascii: "M"): return .seconds(amount * 60)
        case UInt8(ascii: "S"): return .seconds(amount)
        case UInt8(ascii: "m"): return .milliseconds(amount)
        case UInt8(ascii: "u"): return .microseconds(amount)
        case UInt8(ascii: "n"): return .nanoseconds(amount)
        default: return nil
        }
    }

    /// Formats a duration with the finest unit whose amount fits in 8 digits (rounded up,
    /// so a deadline is never sent shorter than it is). Negative durations become `1n`.
    package static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, seconds > 0 || attoseconds > 0 else { return "1n" }
        // Integer arithmetic: a Double loses the nanoseconds of durations over ~104 days and
        // could then round them down.
        let nanoseconds = Int128(seconds) * 1_000_000_000 + Int128((attoseconds + 999_999_999) / 1_000_000_000)
        let units: [(Int128, Character)] = [
            (1, "n"), (1_000, "u"), (1_000_000, "m"), (1_000_000_000, "S"), (60_000_000_000, "M"),
            (3_600_000_000_000, "H"),
        ]
        for (scale, unit) in units {
            let amount = (nanoseconds + scale - 1) / scale
            if amount <= 99_999_999 { return "\(amount)\(unit)" }
        }
        return "99999999H"
    }
}
