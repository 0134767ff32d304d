import CatalogKit
import Synchronization
import Testing

/// Runs `client.filters.watch` in a task of its own and hands its events to the test in
/// order, with the interruptions it reported and how it ended.
final class RecordedWatch {
    private let task: Task<RPCError?, Never>
    private var events: AsyncStream<FilterEvent>.Iterator
    private let interruptionCount = InterruptionCount()

    /// Every event received so far through ``next()`` and ``read(throughRevision:)``.
    private(set) var received: [FilterEvent] = []

    init(
        _ client: CatalogClient,
        filterId: String,
        sinceRevision: Int64? = nil,
        delivery: FilterDelivery = .latest,
        heartbeatSeconds: Int? = nil,
        options: CallOptions = .defaults
    ) {
        let (stream, continuation) = AsyncStream<FilterEvent>.makeStream()
        let watch = client.filters.watch(
            filterId, sinceRevision: sinceRevision, delivery: delivery, heartbeatSeconds: heartbeatSeconds, options: options,
            onInterruption: { [interruptionCount] _ in interruptionCount.value.add(1, ordering: .relaxed) }
        )
        task = Task {
            defer { continuation.finish() }
            do {
                for try await event in watch { continuation.yield(event) }
                return nil
            } catch {
                return RPCError(mapping: error)
            }
        }
        events = stream.makeAsyncIterator()
    }

    /// How many times the stream was lost and resumed.
    var interruptions: Int { interruptionCount.value.load(ordering: .relaxed) }

    /// The next event, or `nil` once the watch ended.
    func next() async -> FilterEvent? {
        guard let event = await events.next() else { return nil }
        received.append(event)
        return event
    }

    /// Reads until an event with a state of at least `revision` arrived; fails when the watch ends first.
    func read(throughRevision revision: Int64) async throws {
        while true {
            let event = try #require(await next(), "the watch ended before revision \(revision)")
            if event.state != nil, event.revision >= revision { return }
        }
    }

    /// Cancels the watching task.
    func cancel() { task.cancel() }

    /// How the watch ended: `nil` when iteration finished without an error.
    func end() async -> RPCError? {
        await task.value
    }

    /// The revisions of the received events that carry a state, in order.
    var stateRevisions: [Int64] { received.filter { $0.state != nil }.map(\.revision) }
}

private final class InterruptionCount: Sendable {
    let value = Atomic(0)
}
