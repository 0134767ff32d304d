import CatalogAPI
import CatalogStore
import DequeModule
import RPCCore
import Synchronization

/// One filter in the Watch hub: its retained states (the current one last) and its
/// subscribers. Lock order: a subscription's lock may be held while taking this one, never
/// the reverse.
final class FilterChannel: Sendable {
    /// One retained state and, once a subscriber needed it, the encoded `change` event that
    /// follows the previous revision (what every subscriber that keeps up receives), by codec.
    struct Entry {
        let state: FilterState
        var changeEvents: [(codec: String, bytes: [UInt8])] = []

        func changeEvent(codec: String) -> [UInt8]? {
            changeEvents.first { $0.codec == codec }?.bytes
        }
    }

    private struct State {
        var history = Deque<Entry>()
        var subscribers: [ObjectIdentifier: FilterSubscription] = [:]
        var deleted = false
    }

    let filterID: String
    private let retained: Int
    private let state = Mutex(State())

    init(filterID: String, history: [FilterState], retained: Int) {
        self.filterID = filterID
        self.retained = retained
        state.withLock { $0.history = Deque(history.suffix(retained).map { Entry(state: $0) }) }
    }

    /// The current state; `nil` once the filter is deleted.
    var current: FilterState? {
        state.withLock { $0.deleted ? nil : $0.history.last?.state }
    }

    // MARK: Writers (in commit order)

    /// Appends a committed state and returns the subscribers to wake. A state already held is
    /// ignored; one that skips revisions (the store lost track of the ones between) starts the
    /// history afresh, so that a subscriber behind it is told it fell past the retained history.
    func publish(_ next: FilterState) -> [FilterSubscription] {
        state.withLock { state in
            var next = next
            if state.deleted {
                state.deleted = false
                state.history.removeAll()
            } else if let previous = state.history.last?.state {
                if next.revision <= previous.revision { return [] }
                if next.revision != previous.revision + 1 {
                    state.history.removeAll()
                } else if previous.options == next.options {
                    next.options = previous.options  // share one copy of unchanged options across the history
                }
            }
            state.history.append(Entry(state: next))
            if state.history.count > retained { state.history.removeFirst(state.history.count - retained) }
            return Array(state.subscribers.values)
        }
    }

    /// Joins a history read from the store to the states published meanwhile: the longest run
    /// of consecutive revisions that ends at the newest state either holds.
    func merge(_ loaded: [FilterState]) {
        state.withLock { state in
            guard !state.deleted else { return }
            var byRevision: [Int64: Entry] = [:]
            for state in loaded { byRevision[state.revision] = Entry(state: state) }
            for entry in state.history { byRevision[entry.state.revision] = entry }
            guard var revision = byRevision.keys.max() else { return }
            var run: [Entry] = []
            while let entry = byRevision[revision], run.count < retained {
                run.append(entry)
                revision -= 1
            }
            state.history = Deque(run.reversed())
        }
    }

    /// Marks the filter deleted and returns its subscribers, which end.
    func delete() -> [FilterSubscription] {
        state.withLock { state in
            state.deleted = true
            state.history.removeAll()
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
    }

    // MARK: Subscribers

    /// Registers a subscriber made from the current state, atomically with reading it.
    func subscribe(_ make: (_ current: FilterState, _ oldestRetained: Int64) throws(CatalogError) -> FilterSubscription)
        throws(CatalogError) -> FilterSubscription
    {
        try state.withLock { state throws(CatalogError) -> FilterSubscription in
            guard !state.deleted, let current = state.history.last?.state, let oldest = state.history.first?.state else {
                throw .unknownFilter(filterID)
            }
            let subscription = try make(current, oldest.revision)
            state.subscribers[ObjectIdentifier(subscription)] = subscription
            return subscription
        }
    }

    func remove(_ subscription: FilterSubscription) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: ObjectIdentifier(subscription)) }
    }

    var subscribers: [FilterSubscription] {
        state.withLock { Array($0.subscribers.values) }
    }

    // MARK: Readers

    /// What a subscriber that has `delivered` should get next: the state right after it,
    /// the newest state, or `nil` when it is up to date. `compacted` when the state after it
    /// is no longer retained.
    enum Successor {
        case upToDate
        case state(FilterState, cachedEvent: [UInt8]?)
        case compacted(oldestRetained: Int64)
    }

    func successor(of delivered: Int64, newest: Bool, codec: String) -> Successor {
        state.withLock { state in
            guard let last = state.history.last, let first = state.history.first, last.state.revision > delivered else {
                return .upToDate
            }
            let wanted = newest ? last.state.revision : delivered + 1
            let index = Int(wanted - first.state.revision)
            guard index >= 0 else { return .compacted(oldestRetained: first.state.revision) }
            let entry = state.history[index]
            let cached = entry.state.revision == delivered + 1 ? entry.changeEvent(codec: codec) : nil
            return .state(entry.state, cachedEvent: cached)
        }
    }

    /// Keeps the encoding of the `change` event for `revision` after `revision - 1`.
    func cacheChangeEvent(_ bytes: [UInt8], revision: Int64, codec: String) {
        state.withLock { state in
            guard let first = state.history.first?.state.revision else { return }
            let index = Int(revision - first)
            guard state.history.indices.contains(index), state.history[index].changeEvent(codec: codec) == nil else { return }
            state.history[index].changeEvents.append((codec, bytes))
        }
    }
}
