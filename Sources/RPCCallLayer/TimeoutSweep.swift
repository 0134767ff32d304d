/// How long, in sweeps of its connection, a stream's request has stayed incomplete and its
/// response has waited without a byte sent: what `HTTP2ServerConfiguration.requestBodyTimeout`
/// and `sendStallTimeout` end. Counting sweeps instead of reading the clock keeps the work per
/// frame to setting one flag.
package struct TimeoutSweep {
    /// What a sweep found.
    enum Expiry: Equatable {
        /// The client has not ended its request for `requestBodyTimeout`.
        case requestTimedOut
        /// Response bytes have waited without one sent for `sendStallTimeout`.
        case sendStalled
    }

    /// Sweeps since the stream opened.
    private var requestSweeps = 0
    /// Sweeps in a row with response bytes waiting and none sent.
    private var stalledSweeps = 0
    /// Whether a response byte was sent since the last sweep.
    private var sentSinceSweep = false

    /// Notes that response bytes went out.
    mutating func sent() {
        sentSinceSweep = true
    }

    /// Counts one sweep of a stream whose request is still open (`requestOpen`) and whose
    /// response has bytes waiting (`responseWaiting`); `requestSweeps` and `stallSweeps` are
    /// the timeouts in sweeps (`nil`: none), passed when more sweeps than that saw the state
    /// (the first sweep may come at once, so a timeout is never cut short).
    mutating func sweep(requestOpen: Bool, responseWaiting: Bool, requestSweeps limit: Int?, stallSweeps: Int?) -> Expiry? {
        defer { sentSinceSweep = false }
        if requestOpen {
            requestSweeps += 1
            if let limit, requestSweeps > limit { return .requestTimedOut }
        }
        if responseWaiting && !sentSinceSweep {
            stalledSweeps += 1
            if let stallSweeps, stalledSweeps > stallSweeps { return .sendStalled }
        } else {
            stalledSweeps = 0
        }
        return nil
    }
}

/// How often a connection sweeps its streams (`TimeoutSweep`), and each timeout in sweeps.
package struct TimeoutSweepSchedule: Equatable {
    /// Time between sweeps: a quarter of the shortest timeout, within 10 ms and 1 s; a
    /// timeout ends a stream at most one interval late.
    let interval: Duration
    let requestSweeps: Int?
    let stallSweeps: Int?

    /// `nil` when neither timeout is set: no sweep is needed.
    init?(requestBodyTimeout: Duration?, sendStallTimeout: Duration?) {
        guard let shortest = [requestBodyTimeout, sendStallTimeout].compactMap({ $0 }).min() else { return nil }
        let interval = min(max(shortest / 4, .milliseconds(10)), .seconds(1))
        self.interval = interval
        requestSweeps = requestBodyTimeout.map { Self.sweeps($0, interval) }
        stallSweeps = sendStallTimeout.map { Self.sweeps($0, interval) }
    }

    /// Whole sweeps covering `timeout` (at least one).
    private static func sweeps(_ timeout: Duration, _ interval: Duration) -> Int {
        let ratio = timeout / interval
        guard ratio < Double(Int.max / 2) else { return Int.max / 2 }
        return max(1, Int(ratio.rounded(.up)))
    }
}
