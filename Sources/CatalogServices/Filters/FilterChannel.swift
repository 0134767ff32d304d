import CatalogAPI
import CatalogStore
import DequeModule
import RPCCore
import Synchronization

/// One filter in the Watch hub: its current state, its retained steps and its subscribers.
/// Lock order: a subscription's lock may be held while taking this one, never the reverse.
///
/// The state at an older revision is rebuilt when a subscriber needs it, by undoing the later
/// steps of the current state (`FilterStep`), so the history costs what the changes cost,
/// however many options the filter has. A start reads no history: steps older than those
/// published since are read from the store when a subscriber resumes from one of them.
final class FilterChannel: Sendable {
    /// How much history a channel keeps.
    struct Retention: Sendable {
        /// Steps kept, at most.
        var changes: Int
        /// Bytes of option edits kept (`FilterStep.storedSize`), at most; the newest step always.
        var bytes: Int
        /// Bytes of encoded `change` events cached for the subscribers that keep up, at most.
        var cachedEventBytes = 16 << 20
    }

    /// One retained step and, once subscribers needed them, the encoded `change` events to it,
    /// by codec and by the revision they follow: the one before it (what every subscriber that
    /// keeps up receives) and those a `latest` subscriber that fell behind skips from (a burst
    /// of changes leaves many subscribers behind by the same revisions).
    private struct Entry {
        /// Encodings kept per step, at most.
        static let eventsKept = 4

        let step: FilterStep
        let size: Int
        var changeEvents: [(codec: String, previous: Int64, bytes: [UInt8])] = []

        init(_ step: FilterStep) {
            self.step = step
            self.size = step.storedSize
        }

        func changeEvent(codec: String, previous: Int64) -> [UInt8]? {
            changeEvents.first { $0.previous == previous && $0.codec == codec }?.bytes
        }
    }

    private struct State {
        /// `nil` once the filter is deleted.
        var current: FilterState?
        /// Consecutive steps, the last one leading to `current`.
        var steps = Deque<Entry>()
        var stepBytes = 0
        /// Whether `steps` reach back as far as the store's history does: until then, a resume
        /// from before them reads the store first.
        var historyComplete = false
        /// States rebuilt lately, so that subscribers catching up in step cost one step each.
        var rebuilt: [FilterState] = []
        var cachedEventBytes = 0
        var subscribers: [ObjectIdentifier: FilterSubscription] = [:]

        var oldestRetained: Int64? {
            steps.first?.step.revision ?? current?.revision
        }
    }

    /// Where a new subscriber starts, decided with the state it starts from.
    enum Opening {
        case subscribed(FilterSubscription)
        /// The subscriber resumes from before the steps held: read the store's history first.
        case needsHistory
    }

    let filterID: String
    private let retention: Retention
    private let state: Mutex<State>
    private static let rebuiltKept = 4

    /// A channel holding `current`, without history yet.
    init(current: FilterState, retention: Retention) {
        self.filterID = current.filterId
        self.retention = retention
        state = Mutex(State(current: current))
    }

    /// The current state; `nil` once the filter is deleted.
    var current: FilterState? {
        state.withLock { $0.current }
    }

    // MARK: Writers (in commit order)

    /// Takes a committed state and the step that led to it, and returns the subscribers to
    /// wake. A state already held is ignored; one that skips revisions (the store lost track
    /// of the ones between), or that created the filter anew, starts the history afresh.
    ///
    /// A step that follows the current state is applied to it in place, rather than the state
    /// taken: the channel then holds its options alone, and the store holds its own, so that
    /// neither copies ten thousand options to change one.
    func publish(_ next: FilterState, step: FilterStep) -> [FilterSubscription] {
        state.withLock { state in
            if let current = state.current, next.revision <= current.revision { return [] }
            if state.current?.revision == next.revision - 1, !step.creates {
                var edited = state.current!
                state.current = nil  // `edited` now holds the options alone: edited in place
                OptionEdits.apply(step.edits, to: &edited.options)
                edited.set(step)
                state.current = edited
            } else {
                Self.forgetHistory(&state)
                state.current = next
            }
            state.steps.append(Entry(step))
            state.stepBytes += state.steps.last!.size
            trim(&state)
            return Array(state.subscribers.values)
        }
    }

    /// Takes a state read from the store if it is newer than the one held (a change told while
    /// it was read is newer, or the same).
    func offer(_ loaded: FilterState) {
        state.withLock { state in
            guard state.current.map({ loaded.revision > $0.revision }) ?? true else { return }
            Self.forgetHistory(&state)
            state.current = loaded
        }
    }

    /// Joins the store's retained steps (oldest first) to those held: the ones before them
    /// that lead up to them. Afterwards the history is complete: a resume from before it is
    /// past the history.
    func prependHistory(_ loaded: [FilterStep]) {
        state.withLock { state in
            guard let current = state.current, !state.historyComplete else { return }
            let first = state.steps.first?.step.revision ?? current.revision + 1
            // The oldest step held may have started the history after a gap: its edits led from
            // a state never held. The store's are the real ones.
            if let real = loaded.first(where: { $0.revision == first }) {
                state.stepBytes -= state.steps[0].size
                state.steps[0] = Entry(real)
                state.stepBytes += state.steps[0].size
            }
            let older = loaded.filter { $0.revision < first }
            if let last = older.last, last.revision == first - 1,
                zip(older, older.dropFirst()).allSatisfy({ $0.revision + 1 == $1.revision })
            {
                for step in older.reversed() {
                    let entry = Entry(step)
                    state.steps.prepend(entry)
                    state.stepBytes += entry.size
                }
            }
            state.historyComplete = true
            trim(&state)
        }
    }

    /// Marks the filter deleted and returns its subscribers, which end.
    func delete() -> [FilterSubscription] {
        state.withLock { state in
            Self.forgetHistory(&state)
            state.current = nil
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
    }

    private static func forgetHistory(_ state: inout State) {
        state.steps.removeAll()
        state.stepBytes = 0
        state.historyComplete = false
        state.rebuilt.removeAll()
        state.cachedEventBytes = 0
    }

    /// Drops the oldest steps past the retention, and rebuilt states older than what is left.
    private func trim(_ state: inout State) {
        while state.steps.count > retention.changes || (state.stepBytes > retention.bytes && state.steps.count > 1) {
            let dropped = state.steps.removeFirst()
            state.stepBytes -= dropped.size
            state.cachedEventBytes -= dropped.changeEvents.reduce(0) { $0 + $1.bytes.count }
        }
        if let oldest = state.steps.first?.step.revision {
            state.rebuilt.removeAll { $0.revision < oldest }
        }
    }

    // MARK: Subscribers

    /// Registers a subscriber made from the current state and the oldest revision retained,
    /// atomically with reading them; `needsHistory` when `since` is older than the steps held
    /// and the store may hold older ones.
    func subscribe(
        since: Int64?, _ make: (_ current: FilterState, _ oldestRetained: Int64) throws(CatalogError) -> FilterSubscription
    ) throws(CatalogError) -> Opening {
        try state.withLock { state throws(CatalogError) -> Opening in
            guard let current = state.current, let oldest = state.oldestRetained else { throw .unknownFilter(filterID) }
            if let since, since < current.revision, since < oldest - 1, !state.historyComplete { return .needsHistory }
            let subscription = try make(current, oldest)
            state.subscribers[ObjectIdentifier(subscription)] = subscription
            return .subscribed(subscription)
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
        /// The next state's `change` event, encoded already for a subscriber at `delivered`.
        case encoded(revision: Int64, event: [UInt8])
        case state(FilterState)
        case compacted(oldestRetained: Int64)
    }

    func successor(of delivered: Int64, newest: Bool, codec: String) -> Successor {
        state.withLock { state in
            guard let current = state.current, current.revision > delivered, let oldest = state.oldestRetained else {
                return .upToDate
            }
            let wanted = newest ? current.revision : delivered + 1
            guard wanted >= oldest else { return .compacted(oldestRetained: oldest) }
            let index = Int(wanted - oldest)
            if state.steps.indices.contains(index), let event = state.steps[index].changeEvent(codec: codec, previous: delivered) {
                return .encoded(revision: wanted, event: event)
            }
            return .state(rebuild(wanted, &state))
        }
    }

    /// The state at retained revision `revision`: the current one, one rebuilt lately or the
    /// step after one, or the current one with the later steps undone.
    private func rebuild(_ revision: Int64, _ state: inout State) -> FilterState {
        guard let current = state.current, revision < current.revision, let oldest = state.steps.first?.step.revision else {
            return state.current!
        }
        if let kept = state.rebuilt.first(where: { $0.revision == revision }) { return kept }
        var rebuilt: FilterState
        if let previous = state.rebuilt.first(where: { $0.revision == revision - 1 }) {
            rebuilt = state.steps[Int(revision - oldest)].step.applied(to: previous)
        } else {
            let start = state.rebuilt.filter { $0.revision > revision }.min { $0.revision < $1.revision } ?? current
            rebuilt = start
            var later = start.revision
            while later > revision {
                OptionEdits.undo(state.steps[Int(later - oldest)].step.edits, on: &rebuilt.options)
                later -= 1
            }
            rebuilt.set(state.steps[Int(revision - oldest)].step)
        }
        state.rebuilt.append(rebuilt)
        if state.rebuilt.count > Self.rebuiltKept { state.rebuilt.removeFirst() }
        return rebuilt
    }

    /// Keeps the encoding of the `change` event for `revision` after `previous`, within the
    /// cache's bytes (past them, the oldest revisions' encodings go) and `Entry.eventsKept`.
    func cacheChangeEvent(_ bytes: [UInt8], revision: Int64, previous: Int64, codec: String) {
        state.withLock { state in
            guard let first = state.steps.first?.step.revision else { return }
            let index = Int(revision - first)
            guard state.steps.indices.contains(index), state.steps[index].changeEvents.count < Entry.eventsKept,
                state.steps[index].changeEvent(codec: codec, previous: previous) == nil
            else { return }
            state.steps[index].changeEvents.append((codec, previous, bytes))
            state.cachedEventBytes += bytes.count
            var oldest = 0
            while state.cachedEventBytes > retention.cachedEventBytes, oldest < index {
                state.cachedEventBytes -= state.steps[oldest].changeEvents.reduce(0) { $0 + $1.bytes.count }
                state.steps[oldest].changeEvents.removeAll()
                oldest += 1
            }
        }
    }
}
