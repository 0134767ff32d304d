import NIOCore
import RPCCore

/// How a call's handler reaches its response, from its task: each send, finish or attach goes
/// to the connection on its event loop, at once when the task runs there (as calls do, see
/// `ExecutionPolicy`), through the loop's queue otherwise.
struct CallResponder: Sendable {
    private let eventLoop: any EventLoop
    private let stream: NIOLoopBound<CallStream>
    private let connection: NIOLoopBound<ConnectionCalls>
    private let wakeQueue: SourceWakeQueue

    init(stream: CallStream, connection: ConnectionCalls, wakeQueue: SourceWakeQueue, eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
        self.stream = NIOLoopBound(stream, eventLoop: eventLoop)
        self.connection = NIOLoopBound(connection, eventLoop: eventLoop)
        self.wakeQueue = wakeQueue
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
        onEventLoop { [stream, connection] in
            connection.value.finish(stream.value, lastMessage: lastMessage, initialMetadata: initialMetadata, trailers: trailers)
        }
    }

    func attach(_ source: any ResponseSource, initialMetadata: Metadata) {
        onEventLoop { [stream, connection] in
            connection.value.attach(source, to: stream.value, initialMetadata: initialMetadata)
        }
    }

    func wakeSource(of streamID: Int32) {
        wakeQueue.wake(streamID)
    }

    /// Gives back the flow-control credit withheld while the handler's reading was behind.
    func returnWithheldCredit() {
        onEventLoop { [stream, connection] in connection.value.returnWithheldCredit(stream.value) }
    }

    /// Runs `body` on the event loop: at once when already there.
    private func onEventLoop(_ body: @escaping @Sendable () -> Void) {
        if eventLoop.inEventLoop {
            body()
        } else {
            eventLoop.execute(body)
        }
    }
}
