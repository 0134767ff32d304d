import RPCCallLayer
import RPCHTTP2
import Synchronization

/// A clock that stands still until the test moves it: what a rate limit reads in a test
/// that must not wait for real time to pass.
package final class ManualClock: InstantSource {
    private let instant: Mutex<ContinuousClock.Instant>

    /// A clock that reads `start` until moved.
    package init(start: ContinuousClock.Instant = .now) {
        instant = Mutex(start)
    }

    package var now: ContinuousClock.Instant { instant.withLock { $0 } }

    /// Moves the clock forward by `duration`.
    package func advance(by duration: Duration) {
        instant.withLock { $0 = $0.advanced(by: duration) }
    }

    /// This clock, for a rate limit (`HTTP2ServerConfiguration.callRateClock`).
    package var rateLimitClock: RateLimitClock { RateLimitClock(self) }
}
