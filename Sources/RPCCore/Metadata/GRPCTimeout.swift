/// The `grpc-timeout` header: at most 8 digits and a unit (`H M S m u n`).
public enum GRPCTimeout {
    /// Parses a header value; `nil` when it is malformed.
    public static func parse(_ text: String) -> Duration? {
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
    public static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, seconds > 0 || attoseconds > 0 else { return "1n" }
        let nanoseconds = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
        let units: [(Double, Character)] = [(1, "n"), (1e3, "u"), (1e6, "m"), (1e9, "S"), (60e9, "M"), (3600e9, "H")]
        for (scale, unit) in units {
            let amount = (nanoseconds / scale).rounded(.up)
            if amount <= 99_999_999 { return "\(Int64(amount))\(unit)" }
        }
        return "99999999H"
    }
}
