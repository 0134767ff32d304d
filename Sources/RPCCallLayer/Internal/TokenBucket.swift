/// Counts events against a `RateLimit`.
package struct TokenBucket {
    private let limit: RateLimit
    private var tokens: Double
    private var refilledAt: ContinuousClock.Instant

    package init(_ limit: RateLimit, now: ContinuousClock.Instant) {
        self.limit = limit
        self.tokens = Double(limit.burst)
        self.refilledAt = now
    }

    /// Takes one token; `false` when the bucket is empty.
    package mutating func take(now: ContinuousClock.Instant) -> Bool {
        let elapsed = now - refilledAt
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        tokens = min(Double(limit.burst), tokens + seconds * Double(limit.perSecond))
        refilledAt = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
