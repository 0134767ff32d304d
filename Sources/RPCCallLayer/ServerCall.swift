import RPCCore
import RPCFraming

/// The handler-facing side of a call that runs as a task of its connection's
/// (`ExecutionPolicy.task`): a `ServerCallStream` whose request arrives in a mailbox while the
/// handler runs, and whose writes go through a `CallResponder`.
package final class ServerCall: ServerCallStream {
    package let head: RequestHead
    let route: Route
    let mailbox: InboundMailbox
    let abort = AbortSignal()
    private let responder: CallResponder
    private let streamID: Int32

    init(head: RequestHead, route: Route, stream: CallStream, responder: CallResponder) {
        self.head = head
        self.route = route
        self.responder = responder
        self.streamID = stream.id
        self.mailbox = InboundMailbox { responder.returnWithheldCredit() }
    }

    package func receive() async throws(RPCError) -> [UInt8]? {
        try await mailbox.receive()
    }

    package func send(_ message: [UInt8], initialMetadata: Metadata) async throws(RPCError) {
        try await responder.send(message, initialMetadata: initialMetadata)
    }

    package func finish(lastMessage: [UInt8]?, initialMetadata: Metadata, trailers: ResponseTrailers) {
        abort.fire()
        responder.finish(lastMessage: lastMessage, initialMetadata: initialMetadata, trailers: trailers)
    }

    package func attach(_ source: any ResponseSource, initialMetadata: Metadata) {
        abort.fire()
        responder.attach(source, initialMetadata: initialMetadata)
    }

    package func wakeSource() {
        responder.wakeSource(of: streamID)
    }

    package func waitUntilDone() async {
        await abort.wait()
    }
}
