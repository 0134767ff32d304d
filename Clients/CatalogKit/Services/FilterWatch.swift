import CatalogAPI
import RPCCore

/// The events of one filter, from `Filters/Watch`, across lost connections; get one from
/// ``FiltersClient/watch(_:sinceRevision:delivery:heartbeatSeconds:options:onInterruption:)``.
///
/// Iteration starts the call. When the stream is lost with UNAVAILABLE (the server restarted
/// or shut down, the connection dropped), or reset without a status (a proxy in between lost
/// its server: INTERNAL `streamReset`), the sequence calls `onInterruption`, waits a
/// jittered backoff, and watches again from the last revision it delivered, so that the
/// server replays exactly the missed changes. Whatever happens, it never yields a state
/// revision twice or out of order. A `snapshot` with `reset == true` says the missed history
/// is gone and the state starts over; in `everyChange` mode the server ends the watch with
/// OUT_OF_RANGE `revisionCompacted` instead, which the sequence throws.
///
/// Iteration ends (returns `nil`) when the task is cancelled or the server ends the watch with
/// OK (catalogd does not; another server of the contract may), and throws `RPCError` for an
/// end it cannot resume from: CANCELLED when the client is closed, NOT_FOUND (the filter was
/// deleted), OUT_OF_RANGE, RESOURCE_EXHAUSTED (too many subscribers), an auth error, or the
/// deadline of a watch given a timeout of its own (the client's default timeout does not
/// bound a watch).
///
/// ```swift
/// for try await event in catalog.filters.watch("formations") {
///     if let state = event.state { render(state) }
/// }
/// ```
public struct FilterWatch: AsyncSequence, Sendable {
    /// Each element is an event of the filter.
    public typealias Element = FilterEvent
    /// Iteration throws `RPCError`, declared untyped.
    public typealias Failure = any Error

    let runner: CallRunner
    let request: WatchFilterRequest
    let options: CallOptions
    let backoff: Backoff
    let onInterruption: @Sendable (RPCError) -> Void

    /// An iterator; iteration starts the call.
    public func makeAsyncIterator() -> Iterator {
        Iterator(watch: self)
    }

    /// The same watch with its interruptions in the sequence, in order with the events, rather
    /// than reported to `onInterruption`: what a model on the main actor shows as
    /// "reconnecting" until the next event.
    ///
    /// ```swift
    /// for try await update in catalog.filters.watch("categories").updates {
    ///     switch update {
    ///     case .event(let event): if let state = event.state { render(state) }
    ///     case .interrupted(let error): showReconnecting(error)
    ///     }
    /// }
    /// ```
    public var updates: FilterWatchUpdates { FilterWatchUpdates(watch: self) }

    /// Reads events one by one, resuming the call when it is lost.
    public struct Iterator: AsyncIteratorProtocol {
        private let watch: FilterWatch
        private var stream: ResponseStream<FilterEvent>.Iterator?
        /// The revision of the last state delivered (or the caller's `sinceRevision`).
        private var resumeAfter: Int64?
        /// Interruptions since an event last arrived.
        private var failures = 0
        /// When to resume after the interruption just reported.
        private var resumeAt: ContinuousClock.Instant?
        private var ended = false
        private let deadline: ContinuousClock.Instant?

        init(watch: FilterWatch) {
            self.watch = watch
            self.resumeAfter = watch.request.sinceRevision
            self.deadline = watch.runner.streamOptions(watch.options).timeout.map { .now + $0 }
        }

        /// Waits for the next event; `nil` when the task is cancelled. Throws `RPCError`.
        public mutating func next() async throws -> FilterEvent? {
            try await next(isolation: nil)
        }

        /// Waits for the next event on the caller's actor, as ``next()`` does.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> FilterEvent? {
            while let update = try await nextUpdate(isolation: actor) {
                switch update {
                case .event(let event): return event
                case .interrupted(let error): watch.onInterruption(error)
                }
            }
            return nil
        }

        /// The next event, or the interruption of the stream: after one, the next call waits
        /// the backoff and resumes.
        mutating func nextUpdate(isolation actor: isolated (any Actor)?) async throws -> FilterWatchUpdate? {
            while !ended {
                if let resumeAt {
                    self.resumeAt = nil
                    do {
                        try await watch.runner.openStreams.sleep(until: resumeAt)
                    } catch {
                        return try endEarly()
                    }
                }
                if Task.isCancelled { return end() }
                do throws(RPCError) {
                    guard let event = try await nextFromServer(isolation: actor) else { return end() }
                    failures = 0
                    if event.state != nil {
                        if let resumeAfter, event.revision <= resumeAfter { continue }
                        resumeAfter = event.revision
                    }
                    return .event(event)
                } catch {
                    stream = nil
                    if Task.isCancelled || watch.runner.openStreams.isClosed { return try endEarly() }
                    guard error.code == .unavailable || error.detail?.reason == ErrorDetail.streamResetReason else {
                        ended = true
                        throw error
                    }
                    failures += 1
                    let resumeAt = ContinuousClock.now + watch.backoff.delay(afterFailures: failures)
                    if let deadline, resumeAt >= deadline {
                        ended = true
                        throw error
                    }
                    self.resumeAt = resumeAt
                    return .interrupted(error)
                }
            }
            return nil
        }

        /// The next event of the current call, opening one (from `resumeAfter`) when there is none.
        private mutating func nextFromServer(isolation actor: isolated (any Actor)?) async throws(RPCError) -> FilterEvent? {
            if stream == nil {
                var request = watch.request
                request.sinceRevision = resumeAfter
                var options = watch.options
                if let deadline {
                    let remaining = deadline - .now
                    guard remaining > .zero else { throw RPCError(.deadlineExceeded, "the watch's deadline passed") }
                    options.timeout = remaining
                }
                let call = try await watch.runner.serverStreaming(FiltersService.watch, request, options: options)
                stream = call.makeAsyncIterator()
            }
            return try await stream?.next(isolation: actor)
        }

        private mutating func end() -> FilterWatchUpdate? {
            ended = true
            stream = nil
            return nil
        }

        /// Ends the watch before the server did: quietly when the task was cancelled,
        /// throwing CANCELLED when the client was closed.
        private mutating func endEarly() throws(RPCError) -> FilterWatchUpdate? {
            _ = end()
            if !Task.isCancelled && watch.runner.openStreams.isClosed { throw OpenStreams.closedError }
            return nil
        }
    }
}

/// What a ``FilterWatchUpdates`` sequence yields.
public enum FilterWatchUpdate: Sendable {
    /// An event of the filter, as ``FilterWatch`` yields them.
    case event(FilterEvent)
    /// The stream was lost with this error (UNAVAILABLE, or INTERNAL `streamReset`); the
    /// sequence waits its backoff and resumes from the last revision it delivered.
    case interrupted(RPCError)
}

/// A ``FilterWatch`` whose interruptions are elements (see ``FilterWatch/updates``).
public struct FilterWatchUpdates: AsyncSequence, Sendable {
    public typealias Element = FilterWatchUpdate
    /// Iteration throws `RPCError`, declared untyped, as ``FilterWatch`` does.
    public typealias Failure = any Error

    let watch: FilterWatch

    public func makeAsyncIterator() -> Iterator {
        Iterator(events: watch.makeAsyncIterator())
    }

    /// Reads updates one by one, resuming the call after each interruption.
    public struct Iterator: AsyncIteratorProtocol {
        var events: FilterWatch.Iterator

        /// Waits for the next update; `nil` when the task is cancelled. Throws `RPCError`.
        public mutating func next() async throws -> FilterWatchUpdate? {
            try await events.nextUpdate(isolation: nil)
        }

        /// Waits for the next update on the caller's actor, as ``next()`` does.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> FilterWatchUpdate? {
            try await events.nextUpdate(isolation: actor)
        }
    }
}
