import Logging
import Synchronization

/// Lets through at most `limit` of the warnings a peer can provoke at will (abusive or refused
/// connections), so an attacker cannot flood the log. The ones held back are counted, and the
/// next one let through says how many (`suppressed`).
package final class WarningThrottle: Sendable {
    private struct State {
        var bucket: TokenBucket
        var suppressed = 0
    }

    private let state: Mutex<State>

    /// Default: 20 at once, then 1 a second.
    package init(_ limit: RateLimit = RateLimit(burst: 20, perSecond: 1), now: ContinuousClock.Instant = .now) {
        state = Mutex(State(bucket: TokenBucket(limit, now: now)))
    }

    /// Logs `message` at warning level on `logger`, unless over the limit.
    package func warning(
        _ message: @autoclosure () -> Logger.Message, metadata: Logger.Metadata = [:], on logger: Logger,
        now: ContinuousClock.Instant = .now
    ) {
        let suppressed: Int? = state.withLock { state in
            guard state.bucket.take(now: now) else {
                state.suppressed += 1
                return nil
            }
            defer { state.suppressed = 0 }
            return state.suppressed
        }
        guard let suppressed else { return }
        var metadata = metadata
        if suppressed > 0 { metadata["suppressed"] = "\(suppressed)" }
        logger.warning(message(), metadata: metadata)
    }
}
