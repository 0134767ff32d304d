/// The honest calls of one phase: the latency of each call that succeeded, and the rest.
struct LatencySample: Sendable {
    var latencies: [Duration] = []
    var failed = 0
    /// Connections the honest client had to open again after losing one.
    var reconnects = 0

    static func + (lhs: Self, rhs: Self) -> Self {
        LatencySample(
            latencies: lhs.latencies + rhs.latencies, failed: lhs.failed + rhs.failed,
            reconnects: lhs.reconnects + rhs.reconnects)
    }

    /// The nearest-rank percentile in milliseconds (`fraction` 0.5 for p50); 0 without calls.
    func percentileMilliseconds(_ fraction: Double) -> Double {
        let sorted = latencies.sorted()
        guard !sorted.isEmpty else { return 0 }
        let rank = min(sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))
        return sorted[rank] / .microseconds(1) / 1000
    }
}
