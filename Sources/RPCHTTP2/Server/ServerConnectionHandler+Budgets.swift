import NIOCore
import RPCCore

/// What the connection's calls hold against its buffer budgets, and the sweeps that end calls
/// whose request or response timed out.
extension ServerConnectionHandler {
    /// Brings the connection's count of held bytes up to date with `stream`'s.
    func account(_ stream: ServerStream) {
        let held = stream.heldBytes
        guard held != stream.accountedBytes else { return }
        buffered.change(by: held - stream.accountedBytes)
        stream.accountedBytes = held
        if held > 0 { armSweep() }
    }

    /// `stream` is gone: what it held is no longer the connection's.
    func release(_ stream: ServerStream) {
        buffered.change(by: -stream.accountedBytes)
        stream.accountedBytes = 0
    }

    /// The answer to a call that the buffer budgets refuse or end, naming the budget.
    var overBudgetTrailers: ResponseTrailers {
        let (scope, limit) =
            buffered.held > buffered.limit ? ("connection", buffered.limit) : ("server", buffered.pool.limit)
        return ResponseTrailers(
            code: .resourceExhausted,
            message: "the \(scope) holds more bytes of unfinished calls than its budget of \(limit)",
            detail: ErrorDetail(reason: "bufferBudgetExceeded", details: ["scope": .string(scope), "limit": .number(Double(limit))]))
    }

    /// While the connection holds more than its budgets allow, ends its largest calls. (Called
    /// where a write follows: at the end of a read, and in `flush`.)
    func shedOverBudget() {
        guard buffered.isOverBudget, let session, state.isOpen else { return }
        while buffered.isOverBudget, let largest = streams.values.max(by: { $0.heldBytes < $1.heldBytes }), largest.heldBytes > 0 {
            let trailers = overBudgetTrailers
            warnings.warning(
                "ending a call over the buffer budget", metadata: ["held": "\(largest.heldBytes)", "reason": "\(trailers.message)"],
                on: logger)
            endEarly(largest, .bufferBudget, trailers, resetCode: HTTP2ErrorCode.enhanceYourCalm, session: session)
        }
    }

    /// Ends `stream`'s call before its time (`ServerStream.abandon`), counting why.
    private func endEarly(
        _ stream: ServerStream, _ reason: ServerMetrics.EarlyEnd, _ trailers: ResponseTrailers, resetCode: UInt32,
        session: NGHTTP2Session
    ) {
        metrics.endedEarly(reason)
        stream.abandon(trailers: trailers, resetCode: resetCode, session: session)
        account(stream)
    }

    /// Sweeps the streams once `watchSchedule.interval` has passed, unless a sweep is due already.
    func armSweep() {
        guard sweepTimer == nil, let schedule = watchSchedule, let context, state.isOpen else { return }
        sweepTimer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(schedule.interval)) { [self] in
            sweepTimer = nil
            sweep(schedule)
        }
    }

    /// Ends the calls whose request or response timed out (`StreamWatch`); sweeps again while
    /// a request is open or response bytes wait.
    private func sweep(_ schedule: StreamWatchSchedule) {
        guard let session, state.isOpen else { return }
        var watching = false
        for stream in streams.values {
            let requestOpen = !stream.machine.clientEnded
            let expiry = stream.watch.sweep(
                requestOpen: requestOpen, responseWaiting: stream.responseWaiting,
                requestSweeps: schedule.requestSweeps, stallSweeps: schedule.stallSweeps)
            switch expiry {
            case .requestTimedOut? where !stream.machine.isStarted:
                // Its header block never ended, and nothing else may come on the connection until it does.
                return closeAbusive("request headers incomplete for \(configuration.requestBodyTimeout ?? .zero)")
            case .requestTimedOut?:
                if stream.responseComplete {
                    // Answered in full: the client is told to stop sending, without error (RFC 9113 §8.1).
                    session.submitReset(streamID: stream.id, errorCode: HTTP2ErrorCode.noError)
                } else {
                    let timeout = configuration.requestBodyTimeout ?? .zero
                    let trailers = ResponseTrailers(
                        code: .deadlineExceeded, message: "the request did not arrive in full within \(timeout)")
                    endEarly(stream, .requestTimeout, trailers, resetCode: HTTP2ErrorCode.cancel, session: session)
                }
            case .sendStalled?:
                let timeout = configuration.sendStallTimeout ?? .zero
                let trailers = ResponseTrailers(code: .cancelled, message: "the client took no response byte for \(timeout)")
                endEarly(stream, .sendStall, trailers, resetCode: HTTP2ErrorCode.cancel, session: session)
            case nil:
                watching = watching || requestOpen || stream.responseWaiting
            }
        }
        if watching { armSweep() }
        flush()
    }
}
