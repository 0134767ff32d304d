import NIOCore
import RPCCore

/// The handler-facing side of one call run in a task: a `ServerCallStream` whose writes hop to
/// the connection's event loop.
final class ServerCall: ServerCallStream {
    let head: RequestHead
    let route: Route
    let mailbox: InboundMailbox
    let abort = AbortSignal()
    private let eventLoop: any EventLoop
    private let stream: NIOLoopBound<CallStream>
    private let connection: NIOLoopBound<ConnectionCalls>
    private let wakeQueue: SourceWakeQueue
    private let streamID: Int32

    init(
        head: RequestHead, route: Route, stream: CallStream, connection: ConnectionCalls,
        wakeQueue: SourceWakeQueue, eventLoop: any EventLoop
    ) {
        self.head = head
        self.route = route
        self.eventLoop = eventLoop
        self.wakeQueue = wakeQueue
        self.streamID = stream.id
        let stream = NIOLoopBound(stream, eventLoop: eventLoop)
        let connection = NIOLoopBound(connection, eventLoop: eventLoop)
        self.stream = stream
        self.connection = connection
        self.mailbox = InboundMailbox { [eventLoop] in
            eventLoop.execute { connection.value.returnWithheldCredit(stream.value) }
        }
    }

    func receive() async throws(RPCError) -> [UInt8]? {
        try await mailbox.receive()
    }

    func send(_ message: [UInt8], initialMetadata: Metadata) async throws(RPCError) {
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                onEventLoop { [stream, connection] in
                    connection.value.send(message, on: stream.value, initialMetadata: initialMetadata, continuation: continuation)
                }
            }
        } catch {
            throw RPCError(mapping: error)
        }
    }

    func finish(lastMessage: [UInt8]?, initialMetadata: Metadata, trailers: ResponseTrailers) {
        abort.fire()
        onEventLoop { [stream, connection] in
            connection.value.finish(stream.value, lastMessage: lastMessage, initialMetadata: initialMetadata, trailers: trailers)
        }
    }

    func attach(_ source: any ResponseSource, initialMetadata: Metadata) {
        abort.fire()
        onEventLoop { [stream, connection] in
            connection.value.attach(source, to: stream.value, initialMetadata: initialMetadata)
        }
    }

    func wakeSource() {
        wakeQueue.wake(streamID)
    }

    /// Runs `body` on the event loop: at once when already there (calls run there by default).
    private func onEventLoop(_ body: @escaping @Sendable () -> Void) {
        if eventLoop.inEventLoop {
            body()
        } else {
            eventLoop.execute(body)
        }
    }

    func waitUntilDone() async {
        await abort.wait()
    }
}
