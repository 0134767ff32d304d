import RPCCore
import Synchronization

/// The handler-facing side of a call started where its request completed
/// (`ExecutionPolicy.inline`): its request is whole before the handler runs, so reading it
/// never suspends, and its writes go through a `CallResponder`, at once while the handler runs
/// on the loop that started it.
package final class InlineCall: ServerCallStream {
    package let head: RequestHead
    private let responder: CallResponder
    private let streamID: Int32
    /// The request messages not yet read: at most two are kept, enough for a unary call to
    /// tell that more than one came (`InlineRequest`).
    private let messages: Mutex<(first: [UInt8]?, second: [UInt8]?)>

    init(head: RequestHead, first: [UInt8]?, second: [UInt8]?, streamID: Int32, responder: CallResponder) {
        self.head = head
        self.messages = Mutex((first, second))
        self.streamID = streamID
        self.responder = responder
    }

    package func receive() async throws(RPCError) -> [UInt8]? {
        messages.withLock { messages in
            defer { messages = (messages.second, nil) }
            return messages.first
        }
    }

    package func send(_ message: [UInt8], initialMetadata: Metadata) async throws(RPCError) {
        try await responder.send(message, initialMetadata: initialMetadata)
    }

    package func finish(lastMessage: [UInt8]?, initialMetadata: Metadata, trailers: ResponseTrailers) {
        responder.finish(lastMessage: lastMessage, initialMetadata: initialMetadata, trailers: trailers)
    }

    package func attach(_ source: any ResponseSource, initialMetadata: Metadata) {
        responder.attach(source, initialMetadata: initialMetadata)
    }

    package func wakeSource() {
        responder.wakeSource(of: streamID)
    }

    /// Not used: an inline call's task is the handler's own (`Route.serve`), and nothing waits in it.
    package func waitUntilDone() async {}
}
