/// Watches the frames a peer sends for floods that nghttp2 1.52 does not stop by itself:
/// rapid RST_STREAM, PING and SETTINGS floods, and endless CONTINUATION frames.
struct AbuseGuard {
    private let limits: AbuseLimits
    private var resets: TokenBucket
    private var pings: TokenBucket
    private var settings: TokenBucket
    private var oversizedHeaderLists: TokenBucket
    private var continuations = 0

    init(limits: AbuseLimits, now: ContinuousClock.Instant = .now) {
        self.limits = limits
        resets = TokenBucket(limits.resets, now: now)
        pings = TokenBucket(limits.pings, now: now)
        settings = TokenBucket(limits.settings, now: now)
        oversizedHeaderLists = TokenBucket(limits.oversizedHeaderLists, now: now)
    }

    /// Records a request whose header list was over the limit; returns why the connection
    /// must be closed, or `nil`.
    mutating func headerListOverflowed() -> String? {
        oversizedHeaderLists.take(now: .now) ? nil : "oversized header lists"
    }

    /// Records a frame header; returns why the connection must be closed, or `nil`. The caller
    /// passes only the RST_STREAM frames that count (see `AbuseLimits.resets`). The clock is
    /// read only for the rate-limited frames, not for every HEADERS and DATA frame.
    mutating func frameBegan(type: UInt8, flags: UInt8) -> String? {
        switch type {
        case FrameType.rstStream:
            return resets.take(now: .now) ? nil : "RST_STREAM flood"
        case FrameType.ping where flags & FrameFlags.ack == 0:
            return pings.take(now: .now) ? nil : "PING flood"
        case FrameType.settings where flags & FrameFlags.ack == 0:
            return settings.take(now: .now) ? nil : "SETTINGS flood"
        case FrameType.headers:
            continuations = 0
            return nil
        case FrameType.continuation:
            continuations += 1
            return continuations > limits.maxContinuationFrames ? "CONTINUATION flood" : nil
        default:
            return nil
        }
    }
}
