import CatalogAPI
import RPCCore
import Testing

/// One `Filters/Session` call driven message by message: actions sent when the test says,
/// events read one at a time, each read bounded in time so that a missing event fails the
/// test instead of hanging it.
struct SessionProbe {
    let call: any ClientCallStream
    private let codec = JSONCodec()

    /// Opens a Session on `transport` with `opening` as its first message.
    static func open(
        _ transport: any ClientTransport, _ opening: FilterSessionRequest, options: CallOptions = .defaults
    ) async throws -> SessionProbe {
        let probe = SessionProbe(call: try await transport.openCall(FiltersService.session.descriptor, options: options))
        // A call refused at its headers may have ended already: its status is what `next` throws.
        try? await probe.send(opening)
        return probe
    }

    /// Opens a Session of `filterID` and reads its snapshot and synced events; returns the probe and the snapshot's state.
    static func openSynced(
        _ transport: any ClientTransport, filterID: String, options: CallOptions = .defaults,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (SessionProbe, FilterState) {
        let probe = try await open(transport, FilterSessionRequest(filterId: filterID), options: options)
        let snapshot = try await probe.next()
        #expect(snapshot.kind == .snapshot, sourceLocation: sourceLocation)
        #expect(try await probe.next().kind == .synced, sourceLocation: sourceLocation)
        return (probe, try #require(snapshot.state, sourceLocation: sourceLocation))
    }

    func send(_ request: FilterSessionRequest) async throws {
        try await call.send(try codec.encode(request), endOfStream: false)
    }

    /// Sends raw JSON as one message.
    func send(json: String) async throws {
        try await call.send(Array(json.utf8), endOfStream: false)
    }

    func halfClose() async throws {
        try await call.endRequests()
    }

    /// The next event other than a heartbeat; fails when the stream ends or nothing comes in time.
    func next(timeout: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation) async throws -> FilterEvent {
        let event = try await nextOrEnd(timeout: timeout)
        return try #require(event, "the Session ended", sourceLocation: sourceLocation)
    }

    /// The next event other than a heartbeat, or `nil` at the end of the stream; throws the stream's error.
    func nextOrEnd(timeout: Duration = .seconds(30)) async throws -> FilterEvent? {
        let call = self.call
        while true {
            let bytes = try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
                group.addTask { try await call.receive() }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    call.cancel()
                    throw RPCError(.deadlineExceeded, "no Session event within \(timeout)")
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
            guard let bytes else { return nil }
            let event = try codec.decode(FilterEvent.self, from: bytes)
            if event.kind != .heartbeat { return event }
        }
    }

    /// The error the Session ends with (`nil`: OK), after checking that no event comes first.
    func end(sourceLocation: SourceLocation = #_sourceLocation) async -> RPCError? {
        do {
            let event = try await nextOrEnd()
            #expect(event == nil, "an event after the expected end: \(String(describing: event))", sourceLocation: sourceLocation)
            return nil
        } catch let error as RPCError {
            return error
        } catch {
            Issue.record("not an RPCError: \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    func cancel() {
        call.cancel()
    }
}

extension FilterSessionRequest {
    /// A Select action.
    static func select(_ optionID: Int64?, toggle: Bool? = nil, tag: String?) -> FilterSessionRequest {
        FilterSessionRequest(tag: tag, select: Selection(optionId: optionID, toggle: toggle))
    }
}
