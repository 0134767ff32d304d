/// How the client retries idempotent reads that fail with UNAVAILABLE.
///
/// Reads (gets, lists, `stats`, `palette`, `export`, `describe`, `health.check`) are retried
/// when the server could not be reached or the connection was lost; writes never are, since
/// the server may have applied them. Every attempt and every wait counts against the call's
/// timeout. Set `maxAttempts` to 1 to turn retries off.
///
/// ```swift
/// var configuration = CatalogClient.Configuration.defaults
/// configuration.retry = RetryPolicy(maxAttempts: 5, backoff: Backoff(initial: .milliseconds(50), maximum: .seconds(1)))
/// ```
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first one included; at least 1.
    public var maxAttempts: Int
    /// The wait before each retry.
    public var backoff: Backoff

    /// A policy of `maxAttempts` attempts spaced by `backoff`.
    public init(maxAttempts: Int, backoff: Backoff) {
        self.maxAttempts = max(maxAttempts, 1)
        self.backoff = backoff
    }

    /// 3 attempts, waiting about 50 ms then 100 ms (±20 %), at most 1 s.
    public static var defaults: RetryPolicy {
        RetryPolicy(maxAttempts: 3, backoff: Backoff(initial: .milliseconds(50), maximum: .seconds(1)))
    }

    /// A single attempt: no retries.
    public static var none: RetryPolicy {
        RetryPolicy(maxAttempts: 1, backoff: Backoff(initial: .zero, maximum: .zero))
    }
}
