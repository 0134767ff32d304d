import CatalogAPI
import CatalogStore
import RPCCore
import Synchronization

/// One `Filters/Watch` stream, pulled by the transport. It keeps no queue: what it has not
/// sent yet is read from the channel's retained history when the client can take more, so a
/// slow subscriber costs a few integers and never holds back writers or other subscribers.
final class FilterSubscription: ResponseSource {
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
        channel: FilterChannel, start: Start, delivery: FilterDelivery, heartbeatInterval: Duration,
        contentType: ContentType, head: RequestHead?, waker: ResponseWaker,
        onClose: @escaping @Sendable (FilterSubscription) -> Void
    ) {
        self.channel = channel
        self.delivery = delivery
        self.heartbeatInterval = heartbeatInterval
        self.head = head
        self.codec = contentType.codec
        self.codecName = contentType.codecName
        self.waker = waker
        self.onClose = onClose
        let initial: State
        switch start {
        case .snapshot(let snapshot, let reset):
            initial = State(snapshot: PendingSnapshot(snapshot, reset: reset), delivered: snapshot.revision, syncAt: snapshot.revision, lastSent: .now)
        case .resume(let after, let syncedAt):
            initial = State(delivered: after, syncAt: syncedAt, lastSent: .now)
        }
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
        // Live, a `latest` subscriber skips to the newest state; while replaying it takes each one
        // (and skips to the newest only if the history moved past it).
        let newest = delivery == .latest && state.syncAt == nil
        switch channel.successor(of: state.delivered, newest: newest, codec: codecName) {
        case .state(let next, let cachedEvent):
            return deliver(next, cachedEvent: cachedEvent, &state)
        case .compacted where delivery == .latest:
            guard case .state(let next, _) = channel.successor(of: state.delivered, newest: true, codec: codecName) else { return .idle }
            return deliver(next, cachedEvent: nil, &state)
        case .compacted(let oldest):
            let error = CatalogError.revisionCompacted(state.delivered, oldestRetained: oldest).rpcError
            let end = ResponseTrailers(
                error: RPCError(error.code, "the subscriber fell behind the retained history: \(error.message)", detail: error.detail))
            state.end = end
            return .end(end)
        case .upToDate:
            if state.heartbeatDue {
                state.heartbeatDue = false
                return encode(FilterEvent(kind: .heartbeat, revision: state.delivered))
            }
            return .idle
        }
    }

    /// A `change` event for `next`, from the channel's cache when it follows the revision just
    /// before it (then encoded once for every subscriber that keeps up).
    private func deliver(_ next: FilterState, cachedEvent: [UInt8]?, _ state: inout State) -> ResponsePull {
        let previous = state.delivered
        state.delivered = next.revision
        state.heartbeatDue = false
        if let cachedEvent { return .message(cachedEvent) }
        let pull = encode(FilterEvent(kind: .change, revision: next.revision, previousRevision: previous, state: next))
        if case .message(let bytes) = pull, previous == next.revision - 1 {
            channel.cacheChangeEvent(bytes, revision: next.revision, codec: codecName)
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
