import CatalogAPI
import CatalogStore
import RPCCore
import Synchronization

/// One `Health/Watch` stream: the newest status not yet sent, pulled by the transport.
/// A watcher that does not read sees only the latest status; it holds no task.
final class HealthWatchSource: ResponseSource {
    private struct State {
        var pending: ServingStatus?
        var ending = false
        var closed = false
    }

    private let state: Mutex<State>
    private let codec: any MessageCodec
    private let waker: ResponseWaker
    private let onClose: @Sendable () -> Void

    init(current: ServingStatus, codec: any MessageCodec, waker: ResponseWaker, onClose: @escaping @Sendable () -> Void) {
        state = Mutex(State(pending: current))
        self.codec = codec
        self.waker = waker
        self.onClose = onClose
    }

    /// Replaces the status waiting to be sent.
    func offer(_ status: ServingStatus) {
        state.withLock { $0.pending = status }
        waker.wake()
    }

    /// Ends the stream with UNAVAILABLE once the pending status is sent.
    func end() {
        state.withLock { $0.ending = true }
        waker.wake()
    }

    func next() -> ResponsePull {
        let (status, ending) = state.withLock { state in
            defer { state.pending = nil }
            return (state.pending, state.ending)
        }
        if let status, let bytes = try? codec.encode(HealthCheckResponse(status: status)) {
            return .message(bytes)
        }
        return ending ? .end(ResponseTrailers(code: .unavailable, message: "the server is shutting down")) : .idle
    }

    func streamClosed() {
        let first = state.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        if first { onClose() }
    }
}
