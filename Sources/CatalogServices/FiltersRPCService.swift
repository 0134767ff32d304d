import CatalogAPI
import CatalogStore
import RPCCore

/// Serves `catalog.v1.Filters`: writes go to the store (which tells the hub after commit),
/// reads and Watch are answered by the hub.
///
/// Decisions where the contract leaves room (see also `FilterRules`):
/// - Get and List read the hub, which holds every committed state before the write that made
///   it returns: a client reads its own writes. With other writers (replicas), a Get or a
///   Watch of a filter the hub does not know, or a Watch resuming past the revision it knows,
///   first catches up with the store.
/// - Deleting a filter ends its Watch and Session streams with NOT_FOUND `unknownFilter`.
/// - A Session holds a Watch slot; its actions are checked against the roles of Select,
///   SetPresentation and TogglePresentation (see `FilterSessionCall`).
/// - `sinceRevision` must be 0 or more; `heartbeatSeconds` 1 to 3600.
public struct FiltersRPCService: RPCService {
    private let store: any FilterStore
    private let hub: FilterHub

    public init(store: any FilterStore, hub: FilterHub) {
        self.store = store
        self.hub = hub
    }

    public func register(into router: inout Router) {
        router.register(FiltersService.define, .unary { [self] request, _ in
            try await store.defineFilter(try FilterRules.definition(request))
        })
        router.register(FiltersService.get, .unary { [self] request, _ -> FilterState in
            let filterID = try FilterRules.filterID(request.filterId)
            if store.hasOtherWriters, (try? hub.state(of: filterID)) == nil {
                // Defined on another replica, perhaps, and not heard of here yet.
                try await store.catchUp(filterID: filterID)
            }
            return try hub.state(of: filterID)
        })
        router.register(FiltersService.list, .unary { [self] _, _ in
            FilterList(filters: hub.allStates())
        })
        registerUpdate(FiltersService.select, into: &router) { request in
            (request.filterId, .select(optionID: request.optionId, toggle: request.toggle ?? false))
        }
        registerUpdate(FiltersService.setPresentation, into: &router) { request in
            (request.filterId, .setPresentation(request.presentation))
        }
        registerUpdate(FiltersService.togglePresentation, into: &router) { request in
            (request.filterId, .togglePresentation)
        }
        router.register(FiltersService.delete, .unary { [self] request, _ in
            try await store.deleteFilter(try FilterRules.filterID(request.filterId))
            return Empty()
        })
        router.register(FiltersService.watch, .serverStreaming(.inline, source: { [self] (request: WatchFilterRequest, context, waker) -> any ResponseSource in
            let filterID = try FilterRules.filterID(request.filterId)
            let sinceRevision = try FilterRules.sinceRevision(request.sinceRevision)
            let heartbeatSeconds = try FilterRules.heartbeatSeconds(request.heartbeatSeconds)
            let subscribe = { @Sendable () throws(RPCError) -> any ResponseSource in
                try hub.subscribe(
                    filterID: filterID, sinceRevision: sinceRevision, delivery: request.delivery ?? .latest,
                    heartbeatSeconds: heartbeatSeconds, context: context, waker: waker)
            }
            let first = Result { () throws(RPCError) in try subscribe() }
            guard case .failure(let error) = first, store.hasOtherWriters, Self.mayBeElsewhere(error) else { return try first.get() }
            // Made on another replica, perhaps (the filter, or the revision the client resumes
            // from), and not heard of here yet: catch up, then try once more.
            return CatchingUpSource(waker: waker) { [store] in
                do throws(CatalogError) {
                    try await store.catchUp(filterID: filterID)
                } catch {
                    return .failure(error.rpcError)
                }
                return Result { () throws(RPCError) in try subscribe() }
            }
        }))
        let session = FilterSessionCall(store: store, hub: hub)
        router.register(FiltersService.session, .bidirectionalStreaming { requests, responses, context in
            try await session.run(requests, responses, context)
        })
    }

    /// Registers a filter update whose request `edit` reads, inline: a store that writes its
    /// few rows without suspending (an embedded database whose writer is idle) answers on the
    /// connection's event loop, so a change reaches subscribers with no thread hop before their
    /// own loop's; a store that suspends goes on in the handler's task, which the call's
    /// deadline and cancellation reach.
    private func registerUpdate<Request: Sendable>(
        _ method: UnaryMethod<Request, FilterState>, into router: inout Router,
        edit: @escaping @Sendable (Request) -> (filterID: String, edit: FilterEdit)
    ) {
        router.register(method, .unary(.inline) { [store] request, _ in
            let (filterID, edit) = edit(request)
            return try await store.updateFilter(try FilterRules.filterID(filterID), edit)
        })
    }

    /// Whether a Watch refused with `error` may succeed once this replica has caught up.
    static func mayBeElsewhere(_ error: RPCError) -> Bool {
        ["unknownFilter", "futureRevision"].contains(error.detail?.reason ?? "")
    }
}
