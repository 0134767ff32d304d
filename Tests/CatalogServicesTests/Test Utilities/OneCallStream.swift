import RPCCore
import Synchronization
import Testing

/// An in-memory `ServerCallStream` for one unary call: serves one JSON request and records
/// how the route finishes the call.
final class OneCallStream: ServerCallStream {
    /// What `finish` was called with.
    struct Finished: Sendable {
        var lastMessage: [UInt8]?
        var trailers: ResponseTrailers
    }

    let head: RequestHead
    private let state: Mutex<(requests: [[UInt8]], finished: [Finished])>
    private let done: AsyncStream<Never>
    private let doneContinuation: AsyncStream<Never>.Continuation

    init(path: String, json: String) {
        head = RequestHead(path: path, contentType: .grpcJSON, metadata: [:], deadline: nil, peer: "test")
        state = Mutex(([Array(json.utf8)], []))
        (done, doneContinuation) = AsyncStream.makeStream(of: Never.self)
    }

    /// Every `finish` call, in order.
    var finished: [Finished] { state.withLock { $0.finished } }

    func receive() async throws(RPCError) -> [UInt8]? {
        state.withLock { $0.requests.isEmpty ? nil : $0.requests.removeFirst() }
    }

    func send(_ message: [UInt8], initialMetadata: Metadata) async throws(RPCError) {
        Issue.record("a unary call must not send before finishing")
    }

    func finish(lastMessage: [UInt8]?, initialMetadata: Metadata, trailers: ResponseTrailers) {
        state.withLock { $0.finished.append(Finished(lastMessage: lastMessage, trailers: trailers)) }
        doneContinuation.finish()
    }

    /// A responder's answer, pulled at once: it must be there already.
    func attach(_ source: any ResponseSource, initialMetadata: Metadata) {
        var message: [UInt8]?
        while true {
            switch source.next() {
            case .message(let next):
                message = next
            case .end(let trailers):
                return finish(lastMessage: message, initialMetadata: initialMetadata, trailers: trailers)
            case .idle:
                Issue.record("the attached source had no answer yet")
                return doneContinuation.finish()
            }
        }
    }

    func wakeSource() {}

    func waitUntilDone() async {
        for await _ in done {}
    }
}
