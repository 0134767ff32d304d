import CatalogAPI
import RPCCore

/// Calls `catalog.v1.Filters`; get one from ``CatalogClient/filters``.
///
/// ```swift
/// let state = try await catalog.filters.select("formations", optionId: 3)
/// _ = try await catalog.filters.togglePresentation("formations")
/// for try await event in catalog.filters.watch("formations") { print(event.kind, event.revision) }
/// ```
///
/// `get` and `list` are retried on UNAVAILABLE (see ``RetryPolicy``); writes never are.
/// Every write answers the filter's new state; a write that changes nothing answers the
/// state without bumping its revision.
public struct FiltersClient: Sendable {
    private let runner: CallRunner
    private let resumeBackoff: Backoff

    init(runner: CallRunner, resumeBackoff: Backoff) {
        self.runner = runner
        self.resumeBackoff = resumeBackoff
    }

    /// Creates filter `filterId`, or replaces its title, options or source.
    ///
    /// - Parameters:
    ///   - filterId: The filter's id, e.g. `"formations"`.
    ///   - title: The title shown above the options.
    ///   - options: Fixed options; leave `nil` with a `source`.
    ///   - source: `.categories` makes the options mirror the categories.
    ///   - callOptions: Per-call settings such as a timeout or a token.
    public func define(
        _ filterId: String,
        title: String,
        options: [FilterOption]? = nil,
        source: FilterSource? = nil,
        callOptions: CallOptions = .defaults
    ) async throws -> FilterState {
        let request = DefineFilterRequest(filterId: filterId, title: title, options: options, source: source)
        return try await runner.unary(FiltersService.define, request, options: callOptions, .write)
    }

    /// The current state of filter `filterId`.
    ///
    /// - Throws: `RPCError` NOT_FOUND when there is no such filter.
    public func get(_ filterId: String, options: CallOptions = .defaults) async throws -> FilterState {
        try await runner.unary(FiltersService.get, FilterIDRequest(filterId: filterId), options: options, .read)
    }

    /// Every filter's current state.
    public func list(options: CallOptions = .defaults) async throws -> [FilterState] {
        try await runner.unary(FiltersService.list, Empty(), options: options, .read).filters
    }

    /// Selects `optionId` in filter `filterId`, or "all" when `nil`.
    ///
    /// - Parameters:
    ///   - filterId: The filter, e.g. `"categories"`.
    ///   - optionId: The option to select; `nil` selects "all".
    ///   - toggle: Selecting the option that is already selected clears the selection.
    ///   - options: Per-call settings such as a timeout or a token.
    /// - Throws: `RPCError` NOT_FOUND `unknownOption` for an option the filter does not have.
    public func select(
        _ filterId: String,
        optionId: Int64? = nil,
        toggle: Bool = false,
        options: CallOptions = .defaults
    ) async throws -> FilterState {
        let request = SelectFilterRequest(filterId: filterId, optionId: optionId, toggle: toggle ? true : nil)
        return try await runner.unary(FiltersService.select, request, options: options, .write)
    }

    /// Shows filter `filterId` `.expanded` or `.collapsed`.
    public func setPresentation(
        _ filterId: String,
        to presentation: FilterPresentation,
        options: CallOptions = .defaults
    ) async throws -> FilterState {
        let request = SetPresentationRequest(filterId: filterId, presentation: presentation)
        return try await runner.unary(FiltersService.setPresentation, request, options: options, .write)
    }

    /// Flips filter `filterId` between expanded and collapsed.
    public func togglePresentation(_ filterId: String, options: CallOptions = .defaults) async throws -> FilterState {
        try await runner.unary(FiltersService.togglePresentation, FilterIDRequest(filterId: filterId), options: options, .write)
    }

    /// Deletes filter `filterId`.
    ///
    /// - Throws: `RPCError` FAILED_PRECONDITION `builtinFilter` for the built-in `categories` filter.
    public func delete(_ filterId: String, options: CallOptions = .defaults) async throws {
        _ = try await runner.unary(FiltersService.delete, FilterIDRequest(filterId: filterId), options: options, .write)
    }

    /// The state of filter `filterId` now and after each change, resumed across lost
    /// connections; see ``FilterWatch``.
    ///
    /// Without `sinceRevision` the first events are a `snapshot` and `synced`; with it, the
    /// changes after that revision. Nothing is sent until iteration starts.
    ///
    /// - Parameters:
    ///   - filterId: The filter, e.g. `"categories"`.
    ///   - sinceRevision: Resume after this revision, e.g. the last one a previous run saw.
    ///   - delivery: `.latest` (default) may skip states a slow reader missed;
    ///     `.everyChange` delivers each one or fails with OUT_OF_RANGE.
    ///   - heartbeatSeconds: A `heartbeat` after this many quiet seconds (server default 15).
    ///   - options: Per-call settings; their timeout bounds the whole watch, resumes included.
    ///     The client's default timeout does not: a watch runs until cancelled unless given one.
    ///   - onInterruption: Called with the error each time the stream is lost, before the
    ///     sequence waits (with the client's `reconnectBackoff`) and resumes.
    public func watch(
        _ filterId: String,
        sinceRevision: Int64? = nil,
        delivery: FilterDelivery = .latest,
        heartbeatSeconds: Int? = nil,
        options: CallOptions = .defaults,
        onInterruption: @escaping @Sendable (RPCError) -> Void = { _ in }
    ) -> FilterWatch {
        let request = WatchFilterRequest(
            filterId: filterId, sinceRevision: sinceRevision,
            delivery: delivery, heartbeatSeconds: heartbeatSeconds
        )
        return FilterWatch(runner: runner, request: request, options: options, backoff: resumeBackoff, onInterruption: onInterruption)
    }

    /// Runs `body` with a ``FilterSession`` of filter `filterId`: its events and its actions on
    /// one `Filters/Session` stream, which ends when `body` returns.
    ///
    /// - Parameters:
    ///   - filterId: The filter, e.g. `"categories"`.
    ///   - sinceRevision: Start with the changes after this revision rather than a snapshot.
    ///   - delivery: As for ``watch(_:sinceRevision:delivery:heartbeatSeconds:options:onInterruption:)``.
    ///   - heartbeatSeconds: A `heartbeat` after this many quiet seconds (server default 15).
    ///   - options: Per-call settings; their timeout bounds the session. The client's default
    ///     timeout does not.
    ///   - body: Reads the session's events and performs its actions; the session ends when it returns.
    /// - Returns: What `body` returns.
    /// - Throws: `RPCError` UNIMPLEMENTED at once where the transport cannot stream both ways
    ///   (URLSession; an HTTP/1.1 path); `body`'s error.
    public func session<Result: Sendable>(
        _ filterId: String,
        sinceRevision: Int64? = nil,
        delivery: FilterDelivery = .latest,
        heartbeatSeconds: Int? = nil,
        options: CallOptions = .defaults,
        _ body: @Sendable (FilterSession) async throws -> Result
    ) async throws -> Result {
        let opening = FilterSessionRequest(
            filterId: filterId, sinceRevision: sinceRevision, delivery: delivery, heartbeatSeconds: heartbeatSeconds)
        let (actions, actionInput) = AsyncStream.makeStream(of: FilterSessionRequest.self)
        let (events, eventInput) = AsyncThrowingStream.makeStream(of: FilterEvent.self)
        let answers = SessionAnswerWaiters()
        let session = FilterSession(events: events, actions: actionInput, answers: answers)
        defer {
            actionInput.finish()
            answers.end(RPCError(.cancelled, "the session has ended"))
            eventInput.finish()
        }
        return try await runner.bidirectionalStreaming(FiltersService.session, options: options) { writer in
            try await writer.write(opening)
            for await action in actions { try await writer.write(action) }
        } responses: { responses in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        for try await event in responses {
                            answers.answer(event)
                            eventInput.yield(event)
                        }
                        answers.end(RPCError(.cancelled, "the session has ended"))
                        eventInput.finish()
                    } catch {
                        answers.end(error)
                        eventInput.finish(throwing: error)
                    }
                }
                defer {
                    responses.cancel()
                    group.cancelAll()
                }
                return try await body(session)
            }
        }
    }
}
