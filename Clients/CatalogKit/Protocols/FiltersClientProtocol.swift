import CatalogAPI
import RPCCore

/// The calls of `catalog.v1.Filters` as ``FiltersClient`` makes them: what app code takes so
/// that a test can hand it a fake. Every argument of a requirement is explicit; the extension
/// gives each the defaults ``FiltersClient`` documents.
///
/// A ``FilterWatch`` is made by a client, never by hand: a fake that must watch takes its
/// watches from a real client, such as one of `CatalogTesting`'s `InProcessCatalog`, whose
/// watches resume as they do against a server.
public protocol FiltersClientProtocol: Sendable {
    /// See ``FiltersClient/define(_:title:options:source:callOptions:)``.
    func define(
        _ filterId: String, title: String, options: [FilterOption]?, source: FilterSource?, callOptions: CallOptions
    ) async throws -> FilterState
    /// See ``FiltersClient/get(_:options:)``.
    func get(_ filterId: String, options: CallOptions) async throws -> FilterState
    /// See ``FiltersClient/list(options:)``.
    func list(options: CallOptions) async throws -> [FilterState]
    /// See ``FiltersClient/select(_:optionId:toggle:options:)``.
    func select(_ filterId: String, optionId: Int64?, toggle: Bool, options: CallOptions) async throws -> FilterState
    /// See ``FiltersClient/setPresentation(_:to:options:)``.
    func setPresentation(_ filterId: String, to presentation: FilterPresentation, options: CallOptions) async throws -> FilterState
    /// See ``FiltersClient/togglePresentation(_:options:)``.
    func togglePresentation(_ filterId: String, options: CallOptions) async throws -> FilterState
    /// See ``FiltersClient/delete(_:options:)``.
    func delete(_ filterId: String, options: CallOptions) async throws
    /// See ``FiltersClient/watch(_:sinceRevision:delivery:heartbeatSeconds:options:onInterruption:)``.
    func watch(
        _ filterId: String, sinceRevision: Int64?, delivery: FilterDelivery, heartbeatSeconds: Int?, options: CallOptions,
        onInterruption: @escaping @Sendable (RPCError) -> Void
    ) -> FilterWatch
    /// See ``FiltersClient/session(_:sinceRevision:delivery:heartbeatSeconds:options:_:)``. A fake
    /// without sessions throws UNIMPLEMENTED: `FilterModel` then watches and calls instead.
    func session<Result: Sendable>(
        _ filterId: String, sinceRevision: Int64?, delivery: FilterDelivery, heartbeatSeconds: Int?, options: CallOptions,
        _ body: @Sendable (FilterSession) async throws -> Result
    ) async throws -> Result
}

extension FiltersClientProtocol {
    /// The requirement with ``FiltersClient``'s defaults.
    public func define(
        _ filterId: String, title: String, options: [FilterOption]? = nil, source: FilterSource? = nil,
        callOptions: CallOptions = .defaults
    ) async throws -> FilterState {
        try await define(filterId, title: title, options: options, source: source, callOptions: callOptions)
    }

    /// The requirement with ``FiltersClient``'s defaults.
    public func get(_ filterId: String, options: CallOptions = .defaults) async throws -> FilterState {
        try await get(filterId, options: options)
    }

    /// The requirement with ``FiltersClient``'s defaults.
    public func list(options: CallOptions = .defaults) async throws -> [FilterState] {
        try await list(options: options)
    }

    /// The requirement with ``FiltersClient``'s defaults.
    public func select(
        _ filterId: String, optionId: Int64? = nil, toggle: Bool = false, options: CallOptions = .defaults
    ) async throws -> FilterState {
        try await select(filterId, optionId: optionId, toggle: toggle, options: options)
    }

    /// The requirement with ``FiltersClient``'s defaults.
    public func setPresentation(
        _ filterId: String, to presentation: FilterPresentation, options: CallOptions = .defaults
    ) async throws -> FilterState {
        try await setPresentation(filterId, to: presentation, options: options)
    }

    /// The requirement with ``FiltersClient``'s defaults.
    public func togglePresentation(_ filterId: String, options: CallOptions = .defaults) async throws -> FilterState {
        try await togglePresentation(filterId, options: options)
    }

    /// The requirement with ``FiltersClient``'s defaults.
    public func delete(_ filterId: String, options: CallOptions = .defaults) async throws {
        try await delete(filterId, options: options)
    }

    /// The requirement with ``FiltersClient``'s defaults.
    public func watch(
        _ filterId: String, sinceRevision: Int64? = nil, delivery: FilterDelivery = .latest, heartbeatSeconds: Int? = nil,
        options: CallOptions = .defaults, onInterruption: @escaping @Sendable (RPCError) -> Void = { _ in }
    ) -> FilterWatch {
        watch(
            filterId, sinceRevision: sinceRevision, delivery: delivery, heartbeatSeconds: heartbeatSeconds, options: options,
            onInterruption: onInterruption)
    }

    /// The requirement with ``FiltersClient``'s defaults.
    public func session<Result: Sendable>(
        _ filterId: String, sinceRevision: Int64? = nil, delivery: FilterDelivery = .latest, heartbeatSeconds: Int? = nil,
        options: CallOptions = .defaults, _ body: @Sendable (FilterSession) async throws -> Result
    ) async throws -> Result {
        try await session(
            filterId, sinceRevision: sinceRevision, delivery: delivery, heartbeatSeconds: heartbeatSeconds, options: options, body)
    }
}
