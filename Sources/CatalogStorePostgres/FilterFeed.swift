import CatalogAPI
import CatalogStore
import Synchronization

/// What the observer of filter changes was told, filter by filter, and the one way to tell it
/// more: states are offered from local commits and from the listener's reads, in any order
/// and any number of times, and each revision is told once, in increasing order.
final class FilterFeed: Sendable {
    /// The last thing told about a filter.
    struct Told: Sendable, Equatable {
        var revision: Int64
        /// Told `.deleted` (`revision` is then the filter's revision when it was deleted).
        var deleted: Bool
        /// The state told last, while the filter exists.
        var state: FilterState?
    }

    private struct State {
        var told: [String: Told] = [:]
        var observer: (@Sendable (FilterChange) -> Void)?
    }

    private let state = Mutex(State())

    func setObserver(_ observer: @escaping @Sendable (FilterChange) -> Void) {
        state.withLock { $0.observer = observer }
    }

    /// Whether anyone listens yet: until then only the newest state of a filter matters.
    var hasObserver: Bool {
        state.withLock { $0.observer != nil }
    }

    /// What was told about `filterID`, if anything.
    func told(_ filterID: String) -> Told? {
        state.withLock { $0.told[filterID] }
    }

    /// Every filter told about, with what was told.
    func allTold() -> [String: Told] {
        state.withLock { $0.told }
    }

    /// Tells the states of `filterID` that follow what was told, with the steps that led to
    /// them, oldest first. With `acceptingGap`, a state may skip revisions (the ones between
    /// are gone from the database's history, or were never told); without, `false` when the
    /// first new state does not follow the last one told, and nothing is told: the caller then
    /// reads what lies between.
    @discardableResult
    func offer(_ changes: [(state: FilterState, step: FilterStep)], of filterID: String, acceptingGap: Bool) -> Bool {
        state.withLock { feed in
            let last = feed.told[filterID]?.revision ?? 0
            let fresh = changes.filter { $0.state.revision > last }
            guard let first = fresh.first else { return true }
            if !acceptingGap, first.state.revision != last + 1 { return false }
            for change in fresh {
                feed.observer?(.updated(change.state, change.step))
            }
            feed.told[filterID] = Told(revision: fresh.last!.state.revision, deleted: false, state: fresh.last!.state)
            return true
        }
    }

    /// Tells that `filterID` was deleted at `revision`, unless already told; states up to that
    /// revision offered later (read before the deletion) are not told.
    func offerDeletion(of filterID: String, revision: Int64) {
        state.withLock { feed in
            let told = feed.told[filterID]
            guard told?.deleted != true, revision >= told?.revision ?? 0 else { return }
            feed.observer?(.deleted(filterID: filterID))
            feed.told[filterID] = Told(revision: revision, deleted: true)
        }
    }
}
