import CatalogAPI

/// A filter's options: listed, or mirrored from another resource.
public enum FilterContent: Sendable, Hashable {
    case options([FilterOption])
    case source(FilterSource)
}

/// A validated `Filters/Define`.
public struct FilterDefinition: Sendable, Hashable {
    public var filterID: String
    public var title: String
    public var content: FilterContent

    public init(filterID: String, title: String, content: FilterContent) {
        self.filterID = filterID
        self.title = title
        self.content = content
    }
}

/// A change of a filter's selection or presentation.
public enum FilterEdit: Sendable, Hashable {
    /// `nil` selects "all"; with `toggle`, selecting the selected option clears the selection.
    case select(optionID: Int64?, toggle: Bool)
    case setPresentation(FilterPresentation)
    case togglePresentation
}

/// What a filter update did: the state after it, and whether it made a new revision.
public struct FilterUpdate: Sendable, Hashable {
    public var state: FilterState
    /// `false`: the edit changed nothing, and `state` is the filter as it was.
    public var changed: Bool

    public init(state: FilterState, changed: Bool) {
        self.state = state
        self.changed = changed
    }
}

/// A filter change the store committed.
public enum FilterChange: Sendable, Hashable {
    /// The filter was created or changed: its new state, one revision more than before, and
    /// the step that led to it (`step.revision == state.revision`). A step whose revision does
    /// not follow the last one told starts the filter's history afresh; its edits then mean
    /// nothing.
    case updated(FilterState, FilterStep)
    /// The filter was deleted; its revision stays reserved.
    case deleted(filterID: String)
}

/// Where filter states live. Every effective change bumps the filter's revision by exactly 1
/// in the same transaction as the change, and its step is appended to the retained history; a
/// write that changes nothing returns the state as it is. Revisions never go backwards, across
/// restarts, Delete and Define.
///
/// The history holds steps, not states (`FilterStep`): a write stores what it changed, however
/// many options the filter has, and a start reads only the current states.
///
/// Filters bound to `source: categories` are kept equal to the categories (position order,
/// option id = category id, title = name, icon = icon) by the category writes themselves, in
/// their transactions; a selection whose option disappears is cleared in the same revision.
public protocol FilterStore: Sendable {
    /// Every filter that exists, by id.
    func filters() async throws(CatalogError) -> [FilterState]
    /// The retained steps of a filter after `revision`, oldest first, up to its current state,
    /// for Watch resume; empty for an unknown filter.
    func filterSteps(filterID: String, after revision: Int64) async throws(CatalogError) -> [FilterStep]
    /// Creates the filter or replaces its title and options. Changing the built-in
    /// `categories` filter's source is FAILED_PRECONDITION `builtinFilter`.
    func defineFilter(_ definition: FilterDefinition) async throws(CatalogError) -> FilterState
    /// Applies a selection or presentation edit; says whether it changed the filter (a Session
    /// answers an edit that did not with an `ack`). NOT_FOUND `unknownFilter`, or
    /// `unknownOption` for a select of a missing option.
    func applyFilterEdit(_ filterID: String, _ edit: FilterEdit) async throws(CatalogError) -> FilterUpdate
    /// NOT_FOUND `unknownFilter`; FAILED_PRECONDITION `builtinFilter` for `categories`.
    func deleteFilter(_ filterID: String) async throws(CatalogError)
    /// Whether other processes write this store too, so that the observer may learn of a
    /// change some time after it committed (and `catchUp(filterID:)` is worth calling).
    var hasOtherWriters: Bool { get }
    /// Tells the observer now every committed change of `filterID` it was not told yet: for a
    /// caller that found the filter missing or behind what a client saw elsewhere.
    func catchUp(filterID: String) async throws(CatalogError)
    /// Sets the function told about every committed filter change (including those that
    /// category writes cause): each filter's changes in revision order, each once, a change
    /// made through this store before the write returns to its caller. A store shared by
    /// several processes also tells the changes the others make, as soon as it learns of them.
    /// Revisions are skipped only when the store lost track of a filter for longer than it
    /// retains history.
    func observeFilterChanges(_ observer: @escaping @Sendable (FilterChange) -> Void)
}

extension FilterStore {
    /// The last `limit` retained states of a filter (oldest first, the current one last),
    /// rebuilt from its current state and steps; empty for an unknown filter. For tests and
    /// tools: it reads every filter's current state.
    package func filterHistory(filterID: String, limit: Int) async throws(CatalogError) -> [FilterState] {
        guard limit > 0, let current = try await filters().first(where: { $0.filterId == filterID }) else { return [] }
        let steps = try await filterSteps(filterID: filterID, after: 0).filter { $0.revision <= current.revision }
        return Array(FilterStep.states(current: current, steps: steps).suffix(limit))
    }

    /// The state after a selection or presentation edit (`applyFilterEdit`).
    public func updateFilter(_ filterID: String, _ edit: FilterEdit) async throws(CatalogError) -> FilterState {
        try await applyFilterEdit(filterID, edit).state
    }

    /// A store written by this process alone tells every change before the write returns.
    public var hasOtherWriters: Bool { false }

    /// Nothing to catch up with when nothing else writes.
    public func catchUp(filterID: String) async throws(CatalogError) {}
}
