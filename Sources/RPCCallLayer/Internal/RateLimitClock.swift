/// The time a rate limit reads: the monotonic clock, or one a test moves by hand.
///
/// The monotonic clock is read directly, not through a closure or an existential, so a
/// limit that keeps the default pays one branch for being able to take another.
package struct RateLimitClock: Sendable, Hashable {
    private let source: (any InstantSource)?

    /// `ContinuousClock`.
    package static let continuous = RateLimitClock(source: nil)

    /// The time as `source` tells it.
    package init(_ source: any InstantSource) {
        self.source = source
    }

    private init(source: (any InstantSource)?) {
        self.source = source
    }

    /// The current instant.
    var now: ContinuousClock.Instant {
        if let source { source.now } else { .now }
    }

    package static func == (lhs: RateLimitClock, rhs: RateLimitClock) -> Bool {
        lhs.source.map(ObjectIdentifier.init) == rhs.source.map(ObjectIdentifier.init)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(source.map(ObjectIdentifier.init))
    }
}

/// A clock other than the monotonic one, for `RateLimitClock`: a test's, which it moves by hand.
package protocol InstantSource: AnyObject, Sendable {
    /// The current instant.
    var now: ContinuousClock.Instant { get }
}
