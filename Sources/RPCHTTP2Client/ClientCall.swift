import NIOCore
import RPCCore
import RPCHTTP2Core
import Synchronization

/// The caller-facing side of one outbound call; its operations hop to the event loop.
final class ClientCall: ClientCallStream {
    let mailbox: InboundMailbox
    private let eventLoop: any EventLoop
    private let connection: NIOLoopBound<ClientConnectionHandler>
    private let metadata = Mutex<(initial: Metadata?, trailing: Metadata?)>((nil, nil))
    private let stream = StreamSlot()

    init(connection: ClientConnectionHandler, eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
        let connection = NIOLoopBound(connection, eventLoop: eventLoop)
        self.connection = connection
        let stream = self.stream
        self.mailbox = InboundMailbox { [eventLoop] in
            eventLoop.execute {
                if let state = stream.state { connection.value.returnWithheldCredit(state.value) }
            }
        }
    }

    /// Binds the loop-side state; called once on the event loop when the stream opens.
    func attach(_ state: ClientStream) {
        stream.state = NIOLoopBound(state, eventLoop: eventLoop)
    }

    var initialMetadata: Metadata? { metadata.withLock { $0.initial } }
    var trailingMetadata: Metadata? { metadata.withLock { $0.trailing } }

    func setInitialMetadata(_ value: Metadata) { metadata.withLock { $0.initial = value } }
    func setTrailingMetadata(_ value: Metadata) { metadata.withLock { $0.trailing = value } }

    func send(_ message: [UInt8], endOfStream: Bool) async throws(RPCError) {
        try await send(message, framed: false, endOfStream: endOfStream)
    }

    func endRequests() async throws(RPCError) {
        try await send([], framed: true, endOfStream: true)
    }

    /// Sends body bytes as they are, without the length prefix: for tests of malformed input.
    func sendFramed(_ bytes: [UInt8], endOfStream: Bool) async throws(RPCError) {
        try await send(bytes, framed: true, endOfStream: endOfStream)
    }

    private func send(_ message: [UInt8], framed: Bool, endOfStream: Bool) async throws(RPCError) {
        guard let state = stream.state else { throw RPCError(.internalError, "the call is not open") }
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                eventLoop.execute { [connection] in
                    connection.value.send(message, framed: framed, endOfStream: endOfStream, on: state.value,
                                          continuation: continuation)
                }
            }
        } catch {
            throw RPCError(mapping: error)
        }
    }

    func receive() async throws(RPCError) -> [UInt8]? {
        try await mailbox.receive()
    }

    func cancel() {
        guard let state = stream.state else { return }
        eventLoop.execute { [connection] in
            connection.value.cancel(state.value, error: RPCError(.cancelled, "the call was cancelled"))
        }
    }
}

/// The loop-side state of a call, set once the stream is open.
private final class StreamSlot: Sendable {
    private let value = Mutex<NIOLoopBound<ClientStream>?>(nil)

    var state: NIOLoopBound<ClientStream>? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
