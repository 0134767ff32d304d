import CatalogAPI
import CatalogStore
import Synchronization

/// Each filter's state as the writer last committed it, so that a filter write need not read
/// the state it changes back from SQLite first (that read was a tenth of a Select's time).
///
/// A filter is forgotten as soon as a transaction writes it, so a later read in that
/// transaction, or in any transaction after it rolled back, goes to SQLite; its new state is
/// kept once the transaction commits. It is read only inside write transactions, which the
/// writer runs one at a time, each commit's callbacks before the next transaction begins.
final class CommittedFilterStates: Sendable {
    private let states = Mutex<[String: FilterState]>([:])

    /// The committed state of filter `id`, if kept.
    func state(of id: String) -> FilterState? {
        states.withLock { $0[id] }
    }

    /// Forgets filter `id`: the current transaction writes it.
    func forget(_ id: String) {
        _ = take(id)
    }

    /// Forgets filter `id` and returns its committed state, if kept: the caller then holds the
    /// state's options alone and can edit them in place.
    func take(_ id: String) -> FilterState? {
        states.withLock { $0.removeValue(forKey: id) }
    }

    /// Keeps the states a transaction committed, in order.
    func committed(_ changes: [FilterChange]) {
        states.withLock { states in
            for change in changes {
                switch change {
                case .updated(let state, _): states[state.filterId] = state
                case .deleted(let filterID): states[filterID] = nil
                }
            }
        }
    }
}
