import CatalogKit
import ObservationTestSupport
import Synchronization

/// A real filters' client whose next write can be held, before it is sent or before its answer
/// is returned, until the test releases it: to see what a model shows while a write is under way.
final class HeldFilters: FiltersClientProtocol {
    /// A write held at one point.
    final class Hold: Sendable {
        enum Point: Sendable {
            /// Before the write is sent: the server knows nothing of it yet.
            case beforeSending
            /// After the server applied it, before its answer is returned.
            case beforeAnswering
        }

        let point: Point
        /// Fired when the write reached the point.
        let reached = Signal()
        private let released = Signal()

        init(point: Point) {
            self.point = point
        }

        /// Lets the write go on.
        func release() {
            released.fire()
        }

        func pass() async {
            reached.fire()
            _ = await released.wait(until: .now + .seconds(60))
        }
    }

    private let real: any FiltersClientProtocol
    private let next = Mutex<Hold?>(nil)

    init(_ real: some FiltersClientProtocol) {
        self.real = real
    }

    /// Holds the next `select` or `togglePresentation` at `point`.
    func holdNextWrite(_ point: Hold.Point) -> Hold {
        let hold = Hold(point: point)
        next.withLock { $0 = hold }
        return hold
    }

    private func held(_ write: () async throws -> FilterState) async throws -> FilterState {
        let hold = next.withLock { hold in
            defer { hold = nil }
            return hold
        }
        if hold?.point == .beforeSending { await hold?.pass() }
        let state = try await write()
        if hold?.point == .beforeAnswering { await hold?.pass() }
        return state
    }

    func select(_ filterId: String, optionId: Int64?, toggle: Bool, options: CallOptions) async throws -> FilterState {
        try await held { try await real.select(filterId, optionId: optionId, toggle: toggle, options: options) }
    }

    func togglePresentation(_ filterId: String, options: CallOptions) async throws -> FilterState {
        try await held { try await real.togglePresentation(filterId, options: options) }
    }

    func define(
        _ filterId: String, title: String, options: [FilterOption]?, source: FilterSource?, callOptions: CallOptions
    ) async throws -> FilterState {
        try await real.define(filterId, title: title, options: options, source: source, callOptions: callOptions)
    }

    func get(_ filterId: String, options: CallOptions) async throws -> FilterState {
        try await real.get(filterId, options: options)
    }

    func list(options: CallOptions) async throws -> [FilterState] {
        try await real.list(options: options)
    }

    func setPresentation(_ filterId: String, to presentation: FilterPresentation, options: CallOptions) async throws -> FilterState {
        try await real.setPresentation(filterId, to: presentation, options: options)
    }

    func delete(_ filterId: String, options: CallOptions) async throws {
        try await real.delete(filterId, options: options)
    }

    func watch(
        _ filterId: String, sinceRevision: Int64?, delivery: FilterDelivery, heartbeatSeconds: Int?, options: CallOptions,
        onInterruption: @escaping @Sendable (RPCError) -> Void
    ) -> FilterWatch {
        real.watch(
            filterId, sinceRevision: sinceRevision, delivery: delivery, heartbeatSeconds: heartbeatSeconds, options: options,
            onInterruption: onInterruption)
    }
}

extension HeldFilters {
    /// None: the held writes are unary calls, so a model of these filters watches and calls.
    func session<Result: Sendable>(
        _ filterId: String, sinceRevision: Int64?, delivery: FilterDelivery, heartbeatSeconds: Int?, options: CallOptions,
        _ body: @Sendable (FilterSession) async throws -> Result
    ) async throws -> Result {
        throw RPCError(.unimplemented, "HeldFilters makes no sessions")
    }
}
