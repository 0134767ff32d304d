extension Duration {
    /// The duration in whole nanoseconds, saturating at `Int64.min` and `Int64.max` (about
    /// 292 years either way), so that a duration a peer chose can never trap.
    package var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, sumOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        if sumOverflow { return attoseconds < 0 ? .min : .max }
        return sum
    }
}
