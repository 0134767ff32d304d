/// Jittered exponential backoff: the delay after the n-th consecutive failure.
///
/// The delay is `initial × multiplier^(n-1)`, capped at `maximum`, then spread at random by
/// ±`jitter` so that clients that failed together do not come back together.
///
/// ```swift
/// let backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(5))
/// let third = backoff.delay(afterFailures: 3)   // about 400 ms (320 to 480 ms)
/// ```
public struct Backoff: Sendable, Hashable {
    /// The delay after the first failure, before jitter.
    public var initial: Duration
    /// The largest delay, before jitter.
    public var maximum: Duration
    /// How much each further failure multiplies the delay; at least 1.
    public var multiplier: Double
    /// The fraction (0 to 1) by which a delay varies at random either way.
    public var jitter: Double

    /// A backoff; the defaults are gRPC's connection-backoff shape with smaller delays.
    public init(initial: Duration, maximum: Duration, multiplier: Double = 2, jitter: Double = 0.2) {
        self.initial = initial
        self.maximum = maximum
        self.multiplier = multiplier
        self.jitter = jitter
    }

    /// The delay to wait after `failures` consecutive failures (1 for the first).
    public func delay(afterFailures failures: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return delay(afterFailures: failures, using: &generator)
    }

    /// The delay to wait after `failures` consecutive failures, with jitter from `generator`.
    public func delay(afterFailures failures: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        let ceiling = seconds(maximum)
        var delay = seconds(initial)
        for _ in 1..<max(failures, 1) where delay < ceiling {
            delay *= max(multiplier, 1)
        }
        delay = min(delay, ceiling)
        let spread = min(max(jitter, 0), 1)
        if spread > 0 {
            delay *= Double.random(in: (1 - spread)...(1 + spread), using: &generator)
        }
        return .nanoseconds(Int64(delay * 1e9))
    }

    private func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
