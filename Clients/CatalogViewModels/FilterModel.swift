import CatalogKit
import Observation

/// One filter of the catalog as a view shows it (a title, chips for its options, the
/// selection, expanded or collapsed), kept in sync with the server.
///
/// ``run()`` follows the filter: start it in the view's task and it ends with the view. The
/// actions (``select(_:)``, ``clearSelection()``, ``toggleCollapsed()``) ask the server and
/// show what the server answers, never a guess: the selection changes when the server has
/// accepted it. What the model shows only ever moves forward in ``revision``.
///
/// Where the client streams both ways (HTTP/2, in-process), the model follows the filter and
/// sends its actions on one `Filters/Session`, so each action is answered in its place among
/// the filter's changes. Elsewhere (URLSession, a fake without sessions) it watches the filter
/// and calls Select and TogglePresentation; a view sees the same either way.
///
/// ```swift
/// let formations = FilterModel(filters: catalog.filters, filterId: "categories")
/// let following = Task { await formations.run() }
/// await formations.select(formations.options.first?.id)
/// following.cancel()
/// ```
@MainActor
@Observable
public final class FilterModel {
    /// The filter's id, e.g. `"categories"`.
    public let filterId: String
    /// The title shown above the options; empty until the first state arrived.
    public private(set) var title = ""
    /// The options, in the server's order; empty until the first state arrived.
    public private(set) var options: [FilterOption] = []
    /// The selected option's id; `nil` is "all".
    public private(set) var selectedOptionId: Int64?
    /// Whether the filter is shown collapsed (`FilterPresentation.collapsed`).
    public private(set) var isCollapsed = false
    /// The revision of the state shown; `nil` until the first state arrived.
    public private(set) var revision: Int64?
    /// How the model is connected to the filter's Watch.
    public private(set) var connection: WatchState = .connecting
    /// Why the last action the server refused was refused (e.g. PERMISSION_DENIED for a
    /// reader's token, NOT_FOUND `unknownOption`); `nil` once an action succeeds or after
    /// ``dismissError()``.
    public private(set) var lastError: RPCError?

    @ObservationIgnored private let filters: any FiltersClientProtocol
    @ObservationIgnored private let reconnectBackoff: Backoff
    /// The session the actions go through while ``run()`` has one open.
    @ObservationIgnored private var session: FilterSession?
    /// Whether the session open now has delivered an event.
    @ObservationIgnored private var sessionDelivered = false

    /// A model of filter `filterId`, empty and `.connecting` until ``run()`` receives its state.
    ///
    /// - Parameters:
    ///   - filters: The filters' client, e.g. `catalog.filters`, or a fake.
    ///   - filterId: The filter, e.g. `"categories"`.
    ///   - reconnectBackoff: How long a lost session waits before it resumes (a Watch waits
    ///     the client's own `reconnectBackoff`).
    public init(
        filters: some FiltersClientProtocol, filterId: String,
        reconnectBackoff: Backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(5))
    ) {
        self.filters = filters
        self.filterId = filterId
        self.reconnectBackoff = reconnectBackoff
    }

    /// The selected option, when one is selected and the options hold it.
    public var selectedOption: FilterOption? {
        selectedOptionId.flatMap { id in options.first { $0.id == id } }
    }

    /// Follows the filter until the task is cancelled: shows each state newer than the one
    /// shown, and keeps ``connection`` up to date.
    ///
    /// ``connection`` is `.connecting` until the first event, `.live` after each event,
    /// `.reconnecting` while the stream resumes after it was lost, and `.failed` when it ends
    /// with an error it cannot resume from, which ends this method too. Returns when the
    /// calling task is cancelled, leaving ``connection`` as it was.
    public func run() async {
        connection = .connecting
        if await followInSessions() { return }
        await followByWatch()
    }

    /// Follows the filter on a Session, opened again from the revision shown when the stream is
    /// lost; `false` when the client has no sessions (UNIMPLEMENTED before any event).
    private func followInSessions() async -> Bool {
        var failures = 0
        while true {
            sessionDelivered = false
            do {
                try await filters.session(filterId, sinceRevision: revision) { [weak self] session in
                    await self?.opened(session)
                    for try await event in session.events { await self?.received(event) }
                }
                session = nil
                return true
            } catch {
                session = nil
                if Task.isCancelled { return true }
                let error = RPCError.from(error)
                if error.code == .unimplemented, !sessionDelivered, revision == nil { return false }
                guard error.code == .unavailable || error.reason == ErrorDetail.streamResetReason else {
                    connection = .failed(error)
                    return true
                }
                failures = sessionDelivered ? 1 : failures + 1
                connection = .reconnecting(error)
                do {
                    try await Task.sleep(for: reconnectBackoff.delay(afterFailures: failures))
                } catch {
                    return true
                }
            }
        }
    }

    private func opened(_ session: FilterSession) {
        self.session = session
    }

    private func received(_ event: FilterEvent) {
        sessionDelivered = true
        if let state = event.state { show(state) }
        connection = .live
    }

    /// Follows the filter on its Watch, which resumes by itself.
    private func followByWatch() async {
        do {
            for try await update in filters.watch(filterId).updates {
                switch update {
                case .event(let event):
                    if let state = event.state { show(state) }
                    connection = .live
                case .interrupted(let error):
                    connection = .reconnecting(error)
                }
            }
        } catch {
            if !Task.isCancelled { connection = .failed(RPCError.from(error)) }
        }
    }

    /// Asks the server to select `optionId`, or "all" when `nil`, and shows its answer.
    ///
    /// Nothing changes before the server answered. A refusal sets ``lastError`` and leaves the
    /// state as it is.
    ///
    /// - Parameter optionId: The option to select; `nil` selects "all".
    public func select(_ optionId: Int64?) async {
        await perform(.select(optionId: optionId)) { filters, filterId in
            try await filters.select(filterId, optionId: optionId, toggle: false, options: .defaults)
        }
    }

    /// Asks the server to select "all"; see ``select(_:)``.
    public func clearSelection() async {
        await select(nil)
    }

    /// Asks the server to flip the filter between expanded and collapsed, and shows its
    /// answer; as ``select(_:)``, nothing changes before the server answered.
    public func toggleCollapsed() async {
        await perform(.togglePresentation) { filters, filterId in
            try await filters.togglePresentation(filterId, options: .defaults)
        }
    }

    /// Forgets ``lastError``, e.g. when the view's alert is dismissed.
    public func dismissError() {
        lastError = nil
    }

    /// Sends `action` on the session open, or makes the unary `write` when there is none, and
    /// shows the state it answers; records a refusal in ``lastError``.
    private func perform(
        _ action: FilterSession.Action, orCall write: @Sendable (any FiltersClientProtocol, String) async throws -> FilterState
    ) async {
        do {
            if let session {
                let answer = try await session.perform(action)
                if let state = answer.state { show(state) }
            } else {
                show(try await write(filters, filterId))
            }
            lastError = nil
        } catch {
            lastError = RPCError.from(error)
        }
    }

    /// Shows `state` if it is newer than the state shown. An action's answer and the Watch's
    /// event of the same change both arrive, in either order; the second is ignored, and an
    /// answer overtaken by a later change of another client never takes the state back.
    private func show(_ state: FilterState) {
        if let revision, state.revision <= revision { return }
        revision = state.revision
        if title != state.title { title = state.title }
        if options != state.options { options = state.options }
        if selectedOptionId != state.selectedId { selectedOptionId = state.selectedId }
        let collapsed = state.presentation == .collapsed
        if isCollapsed != collapsed { isCollapsed = collapsed }
    }
}
