import RPCCore

/// How a call's handler reaches its response, from its task: each send, finish or attach goes
/// to the connection on its loop, at once when the task runs there (as calls do, see
/// `ExecutionPolicy`), through the loop's queue otherwise.
package struct CallResponder: Sendable {
    private let loop: any CallLoop
    private let stream: LoopBound<CallStream>
    private let connection: LoopBound<ConnectionCalls>
    private let wakeQueue: SourceWakeQueue

    init(stream: CallStream, connection: ConnectionCalls, wakeQueue: SourceWakeQueue, loop: any CallLoop) {
        self.loop = loop
        self.stream = LoopBound(stream, loop: loop)
        self.connection = LoopBound(connection, loop: loop)
        self.wakeQueue = wakeQueue
    }

    func send(_ message: [UInt8], initialMetadata: Metadata) async throws(RPCError) {
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                loop.run { [stream, connection] in
                    connection.value.send(message, on: stream.value, initialMetadata: initialMetadata, continuation: continuation)
                }
            }
        } catch {
            throw RPCError(mapping: error)
        }
    }

    func finish(lastMessage: [UInt8]?, initialMetadata: Metadata, trailers: ResponseTrailers) {
        loop.run { [stream, connection] in
            connection.value.finish(stream.value, lastMessage: lastMessage, initialMetadata: initialMetadata, trailers: trailers)
        }
    }

    func attach(_ source: any ResponseSource, initialMetadata: Metadata) {
        loop.run { [stream, connection] in
            connection.value.attach(source, to: stream.value, initialMetadata: initialMetadata)
        }
    }

    func wakeSource(of streamID: Int32) {
        wakeQueue.wake(streamID)
    }

    /// Gives back the flow-control credit withheld while the handler's reading was behind.
    func returnWithheldCredit() {
        loop.run { [stream, connection] in connection.value.returnWithheldCredit(stream.value) }
    }
}
