import RPCCore

/// Limits how fast one connection opens calls (`HTTP2ServerConfiguration.maxCallRate`).
package struct CallRateLimiter {
    private var bucket: TokenBucket
    private let clock: RateLimitClock
    /// The answer to a call over the limit: RESOURCE_EXHAUSTED, reason `callRateExceeded`
    /// with the limit in its details.
    let refusal: ResponseTrailers

    init(_ limit: RateLimit, clock: RateLimitClock = .continuous) {
        self.clock = clock
        bucket = TokenBucket(limit, now: clock.now)
        refusal = ResponseTrailers(
            code: .resourceExhausted,
            message: "call rate limit exceeded: at most \(limit.perSecond) new calls per second on one connection, "
                + "\(limit.burst) at once",
            detail: ErrorDetail(
                reason: "callRateExceeded",
                details: ["perSecond": .integer(Int64(limit.perSecond)), "burst": .integer(Int64(limit.burst))]))
    }

    /// Whether a call opened now may run; each one that may takes a token.
    mutating func admit() -> Bool {
        bucket.take(now: clock.now)
    }
}
