import CatalogAPI
import RPCCore
import Testing

/// Reads a Watch stream event by event, each read bounded in time so that a missing event
/// fails the test instead of hanging it.
struct WatchReader {
    let stream: ResponseStream<FilterEvent>

    init(_ stream: ResponseStream<FilterEvent>) {
        self.stream = stream
    }

    /// Opens a Watch on `client`.
    static func open(_ client: RPCClient, _ request: WatchFilterRequest, options: CallOptions = .defaults) async throws -> WatchReader {
        WatchReader(try await client.serverStreaming(FiltersService.watch, request, options: options))
    }

    /// Opens a Watch and reads its snapshot and synced events, expecting exactly those.
    static func openSynced(
        _ client: RPCClient, _ request: WatchFilterRequest, options: CallOptions = .defaults,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> WatchReader {
        let watch = try await open(client, request, options: options)
        #expect(try await watch.next().kind == .snapshot, sourceLocation: sourceLocation)
        #expect(try await watch.next().kind == .synced, sourceLocation: sourceLocation)
        return watch
    }

    /// The next event; fails when the stream ends or nothing comes within `timeout`.
    func next(timeout: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation) async throws -> FilterEvent {
        let event = try await nextOrEnd(timeout: timeout)
        return try #require(event, "the Watch stream ended", sourceLocation: sourceLocation)
    }

    /// The next event, or `nil` at the end of the stream; throws the stream's error.
    func nextOrEnd(timeout: Duration = .seconds(30)) async throws -> FilterEvent? {
        let stream = self.stream
        return try await withThrowingTaskGroup(of: FilterEvent?.self) { group in
            group.addTask {
                // An iterator holds nothing but the stream: a fresh one continues where the last stopped.
                var iterator = stream.makeAsyncIterator()
                return try await iterator.next()
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                stream.cancel()
                throw RPCError(.deadlineExceeded, "no Watch event within \(timeout)")
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    /// Reads until an event with `revision` or more and a state arrives; returns every event
    /// read but heartbeats (a loaded machine may take longer than a heartbeat period).
    func read(throughRevision revision: Int64, timeout: Duration = .seconds(30)) async throws -> [FilterEvent] {
        var events: [FilterEvent] = []
        while true {
            let event = try await next(timeout: timeout)
            if event.kind == .heartbeat { continue }
            events.append(event)
            if event.state != nil, event.revision >= revision { return events }
        }
    }

    func cancel() { stream.cancel() }
}
