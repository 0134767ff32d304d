import RPCCore

/// What the connection's calls hold against its buffer budgets, and the sweeps that end calls
/// whose request or response timed out.
extension ConnectionCalls {
    /// Brings the connection's count of held bytes up to date with `stream`'s.
    func account(_ stream: CallStream) {
        let held = stream.heldBytes
        guard held != stream.accountedBytes else { return }
        buffered.change(by: held - stream.accountedBytes)
        stream.accountedBytes = held
        if held > 0 { armSweep() }
    }

    /// `stream` is gone: what it held is no longer the connection's.
    func release(_ stream: CallStream) {
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
            detail: ErrorDetail(reason: "bufferBudgetExceeded", details: ["scope": .string(scope), "limit": .integer(Int64(limit))]))
    }

    /// While the connection holds more than its budgets allow, ends its largest calls. (Called
    /// where a write follows: at the end of a read, and in `flush`.)
    package func shedOverBudget() {
        guard buffered.isOverBudget, let frontEnd, frontEnd.isOpen else { return }
        while buffered.isOverBudget, let largest = streams.values.max(by: { $0.heldBytes < $1.heldBytes }), largest.heldBytes > 0 {
            let trailers = overBudgetTrailers
            warnings.warning(
                "ending a call over the buffer budget", metadata: ["held": "\(largest.heldBytes)", "reason": "\(trailers.message)"],
                on: logger)
            endEarly(largest, .bufferBudget, trailers, reason: .enhanceYourCalm, frontEnd: frontEnd)
        }
    }

    /// Ends `stream`'s call before its time (`CallStream.abandon`), counting why.
    private func endEarly(
        _ stream: CallStream, _ why: ServerMetrics.EarlyEnd, _ trailers: ResponseTrailers, reason: StreamReset,
        frontEnd: any CallFrontEnd
    ) {
        metrics.endedEarly(why)
        stream.abandon(trailers: trailers, reason: reason, frontEnd: frontEnd)
        account(stream)
    }

    /// Sweeps the streams once `sweepSchedule.interval` has passed, unless a sweep is due already.
    func armSweep() {
        guard sweepTimer == nil, let schedule = sweepSchedule, let loop, let frontEnd, frontEnd.isOpen else { return }
        sweepTimer = loop.schedule(after: schedule.interval) { [self] in
            sweepTimer = nil
            sweep(schedule)
        }
    }

    /// Ends the calls whose request or response timed out (`TimeoutSweep`); sweeps again while
    /// a request is open or response bytes wait.
    private func sweep(_ schedule: TimeoutSweepSchedule) {
        guard let frontEnd, frontEnd.isOpen else { return }
        var watching = false
        for stream in streams.values {
            // A request stream (client streaming, bidirectional) is open as long as its client
            // wants, once its call started; only its header block is timed.
            let requestOpen = !stream.machine.clientEnded && !(stream.machine.isStarted && stream.takesRequestStream)
            let expiry = stream.timeouts.sweep(
                requestOpen: requestOpen, responseWaiting: stream.responseWaiting,
                requestSweeps: schedule.requestSweeps, stallSweeps: schedule.stallSweeps)
            switch expiry {
            case .requestTimedOut? where !stream.machine.isStarted:
                // Its header block never ended, and nothing else may come on the connection until it does.
                return frontEnd.closeAbusive("request headers incomplete for \(configuration.requestBodyTimeout ?? .zero)")
            case .requestTimedOut?:
                if stream.responseComplete {
                    // Answered in full: the client is told to stop sending, without error (RFC 9113 §8.1).
                    frontEnd.reset(stream, .noError)
                } else {
                    let timeout = configuration.requestBodyTimeout ?? .zero
                    let trailers = ResponseTrailers(
                        code: .deadlineExceeded, message: "the request did not arrive in full within \(timeout)")
                    endEarly(stream, .requestTimeout, trailers, reason: .cancel, frontEnd: frontEnd)
                }
            case .sendStalled?:
                let timeout = configuration.sendStallTimeout ?? .zero
                let trailers = ResponseTrailers(code: .cancelled, message: "the client took no response byte for \(timeout)")
                endEarly(stream, .sendStall, trailers, reason: .cancel, frontEnd: frontEnd)
            case nil:
                watching = watching || requestOpen || stream.responseWaiting
            }
        }
        if watching { armSweep() }
        frontEnd.flush()
    }
}
