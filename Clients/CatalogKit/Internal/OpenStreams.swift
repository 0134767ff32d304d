import RPCCore
import Synchronization

/// Something a closing client ends at once: an open server stream, or a Watch waiting to resume.
protocol EndsWhenClientCloses: AnyObject, Sendable {
    func cancel()
}

extension ResponseStream: EndsWhenClientCloses {}
extension RawResponseStream: EndsWhenClientCloses {}

/// The server streams a client has open, so that closing the client ends them. A connection
/// closing gracefully waits for its open streams, and a Watch never ends on its own: without
/// this, `close()` would wait for a Watch that nobody ends.
///
/// It holds its streams weakly: a stream released by its reader is gone from here too.
final class OpenStreams: Sendable {
    private struct Entry {
        weak var stream: (any EndsWhenClientCloses)?
    }

    private struct State {
        var closed = false
        var entries: [Entry] = []
        /// The entry count above which released streams are swept out on the next `track`.
        var sweepAbove = 16
    }

    private let state = Mutex(State())

    /// The error of a stream the closing client ended, and of a stream opened after.
    static let closedError = RPCError(.cancelled, "the client was closed")

    /// Whether the client was closed.
    var isClosed: Bool { state.withLock { $0.closed } }

    /// The stream `open` opens, kept to be ended when the client closes. Throws CANCELLED
    /// without opening it once the client is closed.
    func open<Stream: EndsWhenClientCloses>(_ open: () async throws(RPCError) -> Stream) async throws(RPCError) -> Stream {
        guard !isClosed else { throw Self.closedError }
        let stream = try await open()
        track(stream)
        return stream
    }

    /// Keeps `stream` to be ended when the client closes; ends it at once when it has.
    private func track(_ stream: some EndsWhenClientCloses) {
        let closed = state.withLock { state in
            guard !state.closed else { return true }
            if state.entries.count >= state.sweepAbove {
                state.entries.removeAll { $0.stream == nil }
                state.sweepAbove = max(16, state.entries.count * 2)
            }
            state.entries.append(Entry(stream: stream))
            return false
        }
        if closed { stream.cancel() }
    }

    /// Ends every stream it holds; streams tracked later end at once.
    func closeAll() {
        let streams = state.withLock { state in
            state.closed = true
            defer { state.entries = [] }
            return state.entries.compactMap(\.stream)
        }
        for stream in streams { stream.cancel() }
    }

    /// Sleeps until `instant`, or until the client closes. Throws `CancellationError` when
    /// the task is cancelled or the client closes first.
    func sleep(until instant: ContinuousClock.Instant) async throws {
        let sleep = Sleep(until: instant)
        track(sleep)
        try await withTaskCancellationHandler {
            try await sleep.task.value
        } onCancel: {
            sleep.cancel()
        }
    }

    /// A sleep that closing the client cuts short.
    private final class Sleep: EndsWhenClientCloses {
        let task: Task<Void, any Error>

        init(until instant: ContinuousClock.Instant) {
            task = Task { try await Task.sleep(until: instant, clock: .continuous) }
        }

        func cancel() { task.cancel() }
    }
}
