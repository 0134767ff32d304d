import CatalogAPI
import CatalogStore
import CoreMetrics
import RPCCore
import Synchronization

/// The live state of every filter and the fan-out of its changes to `Filters/Watch`
/// subscribers.
///
/// The store tells the hub about each committed change, each filter's in revision order, a
/// local write's before it returns (`FilterStore.observeFilterChanges`); the hub appends it to
/// the filter's retained history and wakes the filter's subscribers, which the transport then
/// pulls from. Nothing here waits for a subscriber: a slow one only falls behind in the shared
/// history.
///
/// The swift-metrics gauge `catalog_watch_subscribers` follows the number of Watch streams
/// open (made with the factory in force when the hub is made).
///
/// On a server with an authorizer, a Watch stays open only while the authorizer would still
/// let it start: `endUnauthorizedWatches()` ends the others after the credentials change.
public final class FilterHub: Sendable {
    /// Bounds of the hub.
    public struct Limits: Sendable {
        /// Watch streams open at once across the server (contract default 100,000).
        public var maxSubscribers = 100_000
        /// Watch streams open at once on one connection. By default 512: half of a
        /// connection's 1024 concurrent streams (`HTTP2ServerConfiguration`), so that a
        /// connection full of Watches still has streams for its other calls.
        public var maxSubscribersPerConnection = 512
        /// Watch streams open at once for one caller: a token's name, or the peer's IP
        /// address when the server runs open. `nil` (the default): a tenth of
        /// `maxSubscribers` (at least 1), so that one caller leaves nine tenths of the
        /// server's slots to the others.
        public var maxSubscribersPerCaller: Int?
        /// Changes retained per filter for resume (at least 1024).
        public var retainedChanges = 1024
        /// Bytes of option edits retained per filter for resume, at most: fewer changes than
        /// `retainedChanges` are kept only when they are large (each replaces hundreds of
        /// options). 8 MiB by default.
        public var retainedBytes = 8 << 20

        public init() {}

        /// The per-caller limit in force.
        public var effectiveMaxSubscribersPerCaller: Int {
            maxSubscribersPerCaller ?? max(maxSubscribers / 10, 1)
        }
    }

    public let limits: Limits
    private let authorizer: (any CallAuthorizer)?
    private let channels = Mutex<[String: FilterChannel]>([:])
    private let quota: Mutex<WatchQuota>
    private let subscriberGauge = Meter(label: "catalog_watch_subscribers")
    private let shuttingDown = Atomic<Bool>(false)
    /// Where older history is read, once `load(from:)` has run.
    private let historyStore = Mutex<(any FilterStore)?>(nil)

    private var retention: FilterChannel.Retention {
        FilterChannel.Retention(changes: limits.retainedChanges, bytes: limits.retainedBytes)
    }

    /// A hub with no filter yet (`load(from:)` reads them).
    ///
    /// - Parameter authorizer: the server's, which a Watch must satisfy for as long as it
    ///   is open; `nil` on a server that runs open.
    public init(limits: Limits = Limits(), authorizer: (any CallAuthorizer)? = nil) {
        self.limits = limits
        self.authorizer = authorizer
        self.quota = Mutex(WatchQuota(limits: limits))
    }

    /// Follows the store's changes, then loads every filter's current state: no history, which
    /// is read when a subscriber resumes from before what was published since. A change told
    /// while loading and the state loaded make one, whichever came first.
    public func load(from store: any FilterStore) async throws(CatalogError) {
        historyStore.withLock { $0 = store }
        store.observeFilterChanges { [weak self] change in self?.apply(change) }
        for filter in try await store.filters() {
            let existing = channels.withLock { channels -> FilterChannel? in
                if let channel = channels[filter.filterId] { return channel }
                channels[filter.filterId] = FilterChannel(current: filter, retention: retention)
                return nil
            }
            existing?.offer(filter)
        }
    }

    /// Watch streams open now.
    public var subscriberTotal: Int { quota.withLock { $0.total } }

    // MARK: Reads

    /// The current state of a filter; NOT_FOUND `unknownFilter` when there is none.
    public func state(of filterID: String) throws(CatalogError) -> FilterState {
        guard let state = channels.withLock({ $0[filterID] })?.current else { throw .unknownFilter(filterID) }
        return state
    }

    /// Every filter's current state, by id.
    public func allStates() -> [FilterState] {
        channels.withLock { Array($0.values) }.compactMap(\.current).sorted { $0.filterId < $1.filterId }
    }

    // MARK: Changes

    func apply(_ change: FilterChange) {
        switch change {
        case .updated(let state, let step):
            let channel = channels.withLock { channels -> FilterChannel? in
                if let channel = channels[state.filterId] { return channel }
                channels[state.filterId] = FilterChannel(current: state, retention: retention)
                return nil
            }
            for subscription in channel?.publish(state, step: step) ?? [] { subscription.wake() }
        case .deleted(let filterID):
            guard let channel = channels.withLock({ $0[filterID] }) else { return }
            let ended = ResponseTrailers(error: RPCError(mapping: CatalogError.unknownFilter(filterID)))
            for subscription in channel.delete() { subscription.end(ended) }
        }
    }

    // MARK: Watch

    /// A Watch subscription for the call made in `context`, registered atomically with the
    /// state it starts from. It holds a slot of the limits per connection, per caller and of
    /// the server until its stream closes, for whatever reason.
    ///
    /// - Throws: NOT_FOUND `unknownFilter`; OUT_OF_RANGE `futureRevision`, or
    ///   `revisionCompacted` for `everyChange` when the history after `sinceRevision` is gone;
    ///   RESOURCE_EXHAUSTED `tooManySubscribers` past a subscriber limit; the authorizer's
    ///   refusal when it no longer lets the call run (its credentials changed since the call's
    ///   headers were checked); UNAVAILABLE while shutting down.
    public func subscribe(
        filterID: String, sinceRevision: Int64?, delivery: FilterDelivery, heartbeatSeconds: Int,
        context: ServerContext, waker: ResponseWaker
    ) throws(RPCError) -> any ResponseSource {
        let options = FilterSubscription.Options(sinceRevision: sinceRevision, delivery: delivery, heartbeatSeconds: heartbeatSeconds)
        guard let subscription = try register(filterID: filterID, options, session: false, context: context, waker: waker) else {
            return CatchingUpSource(waker: waker) { [self] in
                do throws(RPCError) {
                    try await readHistory(of: filterID)
                } catch {
                    return .failure(error)
                }
                return Result { () throws(RPCError) in
                    try subscribe(
                        filterID: filterID, sinceRevision: sinceRevision, delivery: delivery, heartbeatSeconds: heartbeatSeconds,
                        context: context, waker: waker)
                }
            }
        }
        return subscription
    }

    /// The subscription of a `Filters/Session` call, which the session's task pulls from and
    /// tells its actions' answers to (`FilterSubscription.beginAction()`). As `subscribe`,
    /// reading the store's history first when the client resumes from before what the hub holds.
    func openSession(
        filterID: String, _ options: FilterSubscription.Options, context: ServerContext, waker: ResponseWaker
    ) async throws(RPCError) -> FilterSubscription {
        while true {
            if let subscription = try register(filterID: filterID, options, session: true, context: context, waker: waker) {
                return subscription
            }
            try await readHistory(of: filterID)
        }
    }

    /// Registers a subscription atomically with the state it starts from, holding a slot of
    /// the limits until its stream closes; `nil` when the client resumes from before the
    /// steps the channel holds (read the store's history, then register again).
    private func register(
        filterID: String, _ options: FilterSubscription.Options, session: Bool, context: ServerContext, waker: ResponseWaker
    ) throws(RPCError) -> FilterSubscription? {
        if shuttingDown.load(ordering: .relaxed) { throw RPCError(.unavailable, "the server is shutting down") }
        guard let channel = channels.withLock({ $0[filterID] }) else { throw CatalogError.unknownFilter(filterID).rpcError }
        let holder = WatchQuota.Holder(context)
        if let refusal = quota.withLock({ $0.take(for: holder) }) { throw refusal.rpcError }
        subscriberGauge.increment()
        let subscription: FilterSubscription
        do {
            let opening = try channel.subscribe(since: options.sinceRevision) { current, oldest throws(CatalogError) in
                FilterSubscription(
                    channel: channel,
                    start: try Self.start(current: current, oldestRetained: oldest, since: options.sinceRevision, delivery: options.delivery),
                    options, session: session, contentType: context.contentType, head: authorizer == nil ? nil : context.head, waker: waker
                ) { [weak self, channel] subscription in
                    channel.remove(subscription)
                    self?.subscriberLeft(holder)
                }
            }
            guard case .subscribed(let subscribed) = opening else {
                subscriberLeft(holder)
                return nil
            }
            subscription = subscribed
        } catch {
            subscriberLeft(holder)
            throw error.rpcError
        }
        // Checked again once registered: the headers may have been let through with the
        // credentials that `endUnauthorizedWatches()` has just swept away, before this
        // subscription was there to be swept.
        if let authorizer, let refusal = authorizer.authorize(context.head, for: context.method).refusal {
            subscription.streamClosed()
            throw refusal
        }
        return subscription
    }

    /// Reads a filter's retained steps from the store into its channel, for a subscriber that
    /// resumes from before those published since the hub started.
    private func readHistory(of filterID: String) async throws(RPCError) {
        guard let channel = channels.withLock({ $0[filterID] }) else { throw CatalogError.unknownFilter(filterID).rpcError }
        let store = historyStore.withLock { $0 }
        do throws(CatalogError) {
            channel.prependHistory(try await store?.filterSteps(filterID: filterID, after: 0) ?? [])
        } catch {
            throw error.rpcError
        }
    }

    /// The authorizer's refusal of a call to `method` with `head`; `nil` when it may run (or
    /// the server runs open). A Session checks each action with the method it stands for.
    func refusal(of head: RequestHead, for method: MethodDescriptor) -> RPCError? {
        authorizer?.authorize(head, for: method).refusal
    }

    private func subscriberLeft(_ holder: WatchQuota.Holder) {
        quota.withLock { $0.release(holder) }
        subscriberGauge.decrement()
    }

    /// Ends every open Watch that the authorizer would no longer let start (its token gone
    /// from a reloaded token file, or its role now too low) with the authorizer's refusal,
    /// after what was already sent; returns how many it ended. Call it whenever the
    /// authorizer's credentials change. Each stream is only marked and woken: no task per
    /// subscriber.
    @discardableResult
    public func endUnauthorizedWatches() -> Int {
        guard let authorizer else { return 0 }
        var ended = 0
        for channel in channels.withLock({ Array($0.values) }) {
            for subscription in channel.subscribers {
                guard let head = subscription.head, let refusal = authorizer.authorize(head, for: FiltersService.watch.descriptor).refusal
                else { continue }
                let trailers = ResponseTrailers(
                    error: RPCError(refusal.code, "the Watch is no longer authorized: \(refusal.message)", detail: refusal.detail))
                if subscription.end(trailers) { ended += 1 }
            }
        }
        return ended
    }

    private static func start(current: FilterState, oldestRetained: Int64, since: Int64?, delivery: FilterDelivery)
        throws(CatalogError) -> FilterSubscription.Start
    {
        guard let since else { return .snapshot(current, reset: false) }
        if since > current.revision { throw .futureRevision(since, current: current.revision) }
        if since >= oldestRetained - 1 { return .resume(after: since, syncedAt: current.revision) }
        if delivery == .everyChange { throw .revisionCompacted(since, oldestRetained: oldestRetained) }
        return .snapshot(current, reset: true)
    }

    /// Sends a heartbeat on every stream that was quiet for its interval.
    public func sendHeartbeats(now: ContinuousClock.Instant = .now) {
        for channel in channels.withLock({ Array($0.values) }) {
            for subscription in channel.subscribers { subscription.heartbeatIfQuiet(now: now) }
        }
    }

    /// Sends heartbeats every second until cancelled.
    public func runHeartbeats() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            sendHeartbeats()
        }
    }

    /// Ends every Watch with UNAVAILABLE, so that clients resume elsewhere, and refuses new ones.
    public func shutDown() {
        shuttingDown.store(true, ordering: .relaxed)
        let ended = ResponseTrailers(code: .unavailable, message: "the server is shutting down")
        for channel in channels.withLock({ Array($0.values) }) {
            for subscription in channel.subscribers { subscription.end(ended) }
        }
    }
}
