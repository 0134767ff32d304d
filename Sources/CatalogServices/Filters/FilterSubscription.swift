import CatalogAPI
import CatalogStore
import RPCCore
import Synchronization

/// One `Filters/Watch` stream, pulled by the transport. It keeps no queue: what it has not
/// sent yet is read from the channel's retained history when the client can take more, so a
/// slow subscriber costs a few integers and never holds back writers or other subscribers.
///
/// A `Filters/Session` is the same stream with its actions' answers (`SessionAnswers`): while
/// an action is applied, live changes wait; its answer then takes the place of the change it
/// made (tagged), or comes as an `ack` once the client has the state it acted on.
final class FilterSubscription: ResponseSource {
    /// How the client asked to be served.
    struct Options: Sendable {
        var sinceRevision: Int64?
        var delivery: FilterDelivery
        var heartbeatSeconds: Int
    }

    /// Where the subscriber starts.
    enum Start {
        /// A snapshot of this state (with `reset` when it replaces history that is gone), then synced.
        case snapshot(FilterState, reset: Bool)
        /// The retained changes after `revision`, then synced at `syncedAt`.
        case resume(after: Int64, syncedAt: Int64)
    }

    /// The snapshot still to send: out of line, so that once it is sent a subscriber keeps a
    /// pointer's room for it rather than a whole `FilterState`.
    private final class PendingSnapshot: Sendable {
        let state: FilterState
        let reset: Bool

        init(_ state: FilterState, reset: Bool) {
            self.state = state
            self.reset = reset
        }
    }

    private struct State {
        var snapshot: PendingSnapshot?
        /// The revision of the last state this subscriber received (or resumed after).
        var delivered: Int64
        /// Synced is still to be sent once `delivered` reaches it.
        var syncAt: Int64?
        var heartbeatDue = false
        var lastSent: ContinuousClock.Instant
        var end: ResponseTrailers?
        var closed = false
        /// On a Session: the answers it owes.
        var session: SessionAnswers?
    }

    private let channel: FilterChannel
    private let delivery: FilterDelivery
    let heartbeatInterval: Duration
    /// The call's head, kept to check its authorization again; `nil` on a server that runs open.
    let head: RequestHead?
    private let codec: any MessageCodec
    private let codecName: String
    private let waker: ResponseWaker
    private let onClose: @Sendable (FilterSubscription) -> Void
    private let state: Mutex<State>

    init(
        channel: FilterChannel, start: Start, _ options: Options, session: Bool,
        contentType: ContentType, head: RequestHead?, waker: ResponseWaker,
        onClose: @escaping @Sendable (FilterSubscription) -> Void
    ) {
        self.channel = channel
        self.delivery = options.delivery
        self.heartbeatInterval = .seconds(options.heartbeatSeconds)
        self.head = head
        self.codec = contentType.codec
        self.codecName = contentType.codecName
        self.waker = waker
        self.onClose = onClose
        var initial: State
        switch start {
        case .snapshot(let snapshot, let reset):
            initial = State(snapshot: PendingSnapshot(snapshot, reset: reset), delivered: snapshot.revision, syncAt: snapshot.revision, lastSent: .now)
        case .resume(let after, let syncedAt):
            initial = State(delivered: after, syncAt: syncedAt, lastSent: .now)
        }
        if session { initial.session = SessionAnswers() }
        state = Mutex(initial)
    }

    // MARK: Hub → subscriber (any thread)

    /// A new state was published.
    func wake() {
        waker.wake()
    }

    /// Sends a heartbeat when nothing was sent for the interval.
    func heartbeatIfQuiet(now: ContinuousClock.Instant) {
        let due = state.withLock { state -> Bool in
            guard !state.closed, !state.heartbeatDue, state.lastSent.duration(to: now) >= heartbeatInterval else { return false }
            state.heartbeatDue = true
            return true
        }
        if due { waker.wake() }
    }

    /// Ends the stream with `trailers` after what was already queued; `false` when it was
    /// ending already (with other trailers).
    @discardableResult
    func end(_ trailers: ResponseTrailers) -> Bool {
        let first = state.withLock { state -> Bool in
            guard state.end == nil, !state.closed else { return false }
            state.end = trailers
            return true
        }
        waker.wake()
        return first
    }

    // MARK: Session → subscriber

    /// A Session's action is being applied: live changes wait for its answer.
    func beginAction() {
        state.withLock { $0.session?.begin() }
    }

    /// The action begun last did this; it is answered in its place.
    func answerAction(tag: String?, _ outcome: SessionAnswers.Outcome) {
        state.withLock { $0.session?.answer(SessionAnswers.Answer(tag: tag, outcome: outcome)) }
        waker.wake()
    }

    /// Answers not sent yet.
    var unsentAnswers: Int {
        state.withLock { $0.session?.count ?? 0 }
    }

    /// Ends the Session with `trailers` once every action is answered.
    func endOnceAnswered(_ trailers: ResponseTrailers) {
        state.withLock { $0.session?.endWhenAnswered = trailers }
        waker.wake()
    }

    // MARK: ResponseSource (the transport's thread)

    func next() -> ResponsePull {
        state.withLock { state in
            guard !state.closed else { return .idle }
            if let end = state.end { return .end(end) }
            let pull = nextEvent(&state)
            if case .message = pull { state.lastSent = .now }
            return pull
        }
    }

    private func nextEvent(_ state: inout State) -> ResponsePull {
        if let snapshot = state.snapshot {
            state.snapshot = nil
            let event = FilterEvent(kind: .snapshot, revision: snapshot.state.revision, state: snapshot.state, reset: snapshot.reset ? true : nil)
            return encode(event)
        }
        if let syncAt = state.syncAt, state.delivered >= syncAt {
            state.syncAt = nil
            return encode(FilterEvent(kind: .synced, revision: state.delivered))
        }
        if state.syncAt == nil, let session = state.session, let pull = sessionEvent(session, &state) { return pull }
        // Live, a `latest` subscriber skips to the newest state; while replaying it takes each one
        // (and skips to the newest only if the history moved past it).
        let newest = delivery == .latest && state.syncAt == nil
        let successor = channel.successor(of: state.delivered, newest: newest, codec: codecName)
        switch successor {
        case .encoded, .state:
            return deliver(successor, &state)
        case .compacted where delivery == .latest:
            return deliver(channel.successor(of: state.delivered, newest: true, codec: codecName), &state)
        case .compacted(let oldest):
            let error = CatalogError.revisionCompacted(state.delivered, oldestRetained: oldest).rpcError
            let end = ResponseTrailers(
                error: RPCError(error.code, "the subscriber fell behind the retained history: \(error.message)", detail: error.detail))
            state.end = end
            return .end(end)
        case .upToDate:
            return heartbeatOrIdle(&state)
        }
    }

    /// What a live Session sends next in place of the usual event; `nil`: the usual event.
    private func sessionEvent(_ session: SessionAnswers, _ state: inout State) -> ResponsePull? {
        guard let answer = session.first else {
            if session.applying { return heartbeatOrIdle(&state) }
            if let end = session.endWhenAnswered {
                state.end = end
                return .end(end)
            }
            return nil
        }
        switch answer.outcome {
        case .changed(let reached), .unchanged(let reached):
            if reached.revision > state.delivered {
                // The client has not seen the state acted on: in `everyChange` mode the changes
                // before it come first, as usual.
                if delivery == .everyChange, state.delivered < reached.revision - 1 { return nil }
                guard case .changed = answer.outcome else { return deliver(reached, &state) }
                session.removeFirst()
                let previous = state.delivered
                state.delivered = reached.revision
                state.heartbeatDue = false
                return encode(FilterEvent(kind: .change, revision: reached.revision, previousRevision: previous, state: reached, tag: answer.tag))
            }
            // Unchanged, or changed to a state already sent in a later one (a `latest` replay
            // that skipped over it): acknowledged.
            session.removeFirst()
            return encode(FilterEvent(kind: .ack, revision: reached.revision, tag: answer.tag))
        case .refused(let error):
            session.removeFirst()
            return encode(FilterEvent(kind: .ack, revision: state.delivered, tag: answer.tag, error: FilterEvent.ActionError(error)))
        }
    }

    private func heartbeatOrIdle(_ state: inout State) -> ResponsePull {
        guard state.heartbeatDue else { return .idle }
        state.heartbeatDue = false
        return encode(FilterEvent(kind: .heartbeat, revision: state.delivered))
    }

    /// The `change` event of `successor`: as the channel holds it encoded for this subscriber's
    /// previous revision, or encoded now from its state; nothing when there is none.
    private func deliver(_ successor: FilterChannel.Successor, _ state: inout State) -> ResponsePull {
        switch successor {
        case .encoded(let revision, let event):
            state.delivered = revision
            state.heartbeatDue = false
            return .message(event)
        case .state(let next):
            return deliver(next, &state)
        case .upToDate, .compacted:
            return .idle
        }
    }

    /// A `change` event for `next`, encoded and kept in the channel's cache: encoded once for the
    /// subscribers that keep up, and once for those that skip to it from the same revision.
    private func deliver(_ next: FilterState, _ state: inout State) -> ResponsePull {
        let previous = state.delivered
        state.delivered = next.revision
        state.heartbeatDue = false
        let pull = encode(FilterEvent(kind: .change, revision: next.revision, previousRevision: previous, state: next))
        if case .message(let bytes) = pull {
            channel.cacheChangeEvent(bytes, revision: next.revision, previous: previous, codec: codecName)
        }
        return pull
    }

    private func encode(_ event: FilterEvent) -> ResponsePull {
        do {
            return .message(try codec.encode(event))
        } catch {
            return .end(ResponseTrailers(error: error))
        }
    }

    func streamClosed() {
        let first = state.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        if first { onClose(self) }
    }
}
