/// A token bucket: `burst` events at once, refilled at `perSecond`.
public struct RateLimit: Sendable, Hashable {
    /// Events allowed at once, when the bucket is full.
    public var burst: Int
    /// Events the bucket regains per second, up to `burst`.
    public var perSecond: Int

    /// A limit of `burst` events at once, refilled at `perSecond`.
    public init(burst: Int, perSecond: Int) {
        self.burst = burst
        self.perSecond = perSecond
    }
}
