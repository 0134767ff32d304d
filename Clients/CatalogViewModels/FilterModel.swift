import CatalogKit
import Observation

/// One filter of the catalog as a view shows it (a title, chips for its options, the
/// selection, expanded or collapsed), kept in sync with the server by its Watch.
///
/// ``run()`` follows the filter: start it in the view's task and it ends with the view. The
/// actions (``select(_:)``, ``clearSelection()``, ``toggleCollapsed()``) ask the server and
/// show what the server answers, never a guess: the selection changes when the server has
/// accepted it. What the model shows only ever moves forward in ``revision``, whichever of the
/// action's answer and the Watch's event for the same change arrives first.
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

    /// A model of filter `filterId`, empty and `.connecting` until ``run()`` receives its state.
    ///
    /// - Parameters:
    ///   - filters: The filters' client, e.g. `catalog.filters`, or a fake.
    ///   - filterId: The filter, e.g. `"categories"`.
    public init(filters: some FiltersClientProtocol, filterId: String) {
        self.filters = filters
        self.filterId = filterId
    }

    /// The selected option, when one is selected and the options hold it.
    public var selectedOption: FilterOption? {
        selectedOptionId.flatMap { id in options.first { $0.id == id } }
    }

    /// Follows the filter until the task is cancelled: watches it, shows each state newer than
    /// the one shown, and keeps ``connection`` up to date.
    ///
    /// ``connection`` is `.connecting` until the first event, `.live` after each event,
    /// `.reconnecting` while the Watch resumes after a lost stream, and `.failed` when the
    /// Watch ends with an error it cannot resume from, which ends this method too. Returns when
    /// the calling task is cancelled, leaving ``connection`` as it was.
    public func run() async {
        connection = .connecting
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
        await perform { filters, filterId in
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
        await perform { filters, filterId in
            try await filters.togglePresentation(filterId, options: .defaults)
        }
    }

    /// Forgets ``lastError``, e.g. when the view's alert is dismissed.
    public func dismissError() {
        lastError = nil
    }

    /// Runs a write and shows the state it answers; records a refusal in ``lastError``.
    private func perform(
        _ write: @Sendable (any FiltersClientProtocol, String) async throws -> FilterState
    ) async {
        do {
            let state = try await write(filters, filterId)
            show(state)
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
