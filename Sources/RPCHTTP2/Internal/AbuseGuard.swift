import RPCCallLayer
import RPCHTTP2Core

/// Watches the frames a peer sends for floods that nghttp2 1.52 does not stop by itself:
/// rapid RST_STREAM, PING and SETTINGS floods, endless CONTINUATION frames, frames that
/// carry nothing, and WINDOW_UPDATE frames the server's DATA never called for.
struct AbuseGuard {
    private let limits: AbuseLimits
    private var resets: TokenBucket
    private var pings: TokenBucket
    private var settings: TokenBucket
    private var oversizedHeaderLists: TokenBucket
    private var emptyFrames: TokenBucket
    private var continuations = 0
    private var windowUpdates = 0

    init(limits: AbuseLimits, now: ContinuousClock.Instant = .now) {
        self.limits = limits
        resets = TokenBucket(limits.resets, now: now)
        pings = TokenBucket(limits.pings, now: now)
        settings = TokenBucket(limits.settings, now: now)
        oversizedHeaderLists = TokenBucket(limits.oversizedHeaderLists, now: now)
        emptyFrames = TokenBucket(limits.emptyFrames, now: now)
    }

    /// Records a frame header as the client sent it (`InboundFrameScanner`), seen before
    /// nghttp2 reads the frame, or skips it; `dataFramesSent` is how many DATA frames the
    /// server sent so far. Returns why the connection must be closed, or `nil`.
    mutating func frameScanned(_ frame: InboundFrameScanner.Frame, dataFramesSent: Int) -> String? {
        switch frame.type {
        case FrameType.data where Self.carriesNothing(data: frame), FrameType.priority:
            return emptyFrames.take(now: .now) ? nil : "empty frame flood"
        case FrameType.windowUpdate:
            windowUpdates += 1
            let allowed = AbuseLimits.windowUpdateAllowance + limits.windowUpdatesPerDataFrame * dataFramesSent
            return windowUpdates > allowed ? "WINDOW_UPDATE flood" : nil
        case let type where type > FrameType.continuation:
            return emptyFrames.take(now: .now) ? nil : "unknown frame flood"
        default:
            return nil
        }
    }

    /// Whether a DATA frame neither ends its stream nor surely carries a byte of it.
    private static func carriesNothing(data frame: InboundFrameScanner.Frame) -> Bool {
        guard frame.flags & FrameFlags.endStream == 0 else { return false }
        return frame.length == 0 || (frame.flags & FrameFlags.padded != 0 && frame.length <= AbuseLimits.maxEmptyPaddedDataFrame)
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
