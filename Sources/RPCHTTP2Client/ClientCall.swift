import NIOCore
import RPCCore
import RPCFraming
import RPCHTTP2Core
import Synchronization

/// The caller-facing side of one outbound call; its operations hop to the event loop.
///
/// A request message is handed to the event loop and the caller goes on at once while at most
/// `highWatermark` bytes of its request are unsent; past that it waits until nghttp2 has taken
/// them down to `lowWatermark`. A stream of many messages then costs no task switch a message.
final class ClientCall: ClientCallStream {
    let mailbox: InboundMailbox
    private let eventLoop: any EventLoop
    private let connection: NIOLoopBound<ClientConnectionHandler>
    private let metadata = Mutex<(initial: Metadata?, trailing: Metadata?)>((nil, nil))
    private let stream = StreamSlot()
    private let sending = Mutex(Sending())
    private let highWatermark: Int
    private let lowWatermark: Int

    /// The request bytes on their way out, and the caller waiting for them to go.
    private struct Sending {
        /// Bytes handed to the event loop that nghttp2 has not read yet.
        var unsent = 0
        var parked: CheckedContinuation<Void, any Error>?
        /// Set once the call ended: later sends throw it.
        var ended: RPCError?
    }

    init(connection: ClientConnectionHandler, eventLoop: any EventLoop, highWatermark: Int) {
        self.highWatermark = highWatermark
        self.lowWatermark = highWatermark / 2
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
        let size = framed ? message.count : FramedMessage.prefixLength + message.count
        let admission = sending.withLock { sending -> Result<Bool, RPCError> in
            if let ended = sending.ended { return .failure(ended) }
            sending.unsent += size
            return .success(sending.unsent > highWatermark)
        }
        let mustWait = try admission.get()
        eventLoop.execute { [connection] in
            connection.value.send(message, framed: framed, endOfStream: endOfStream, counted: size, on: state.value)
        }
        guard mustWait else { return }
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready = sending.withLock { sending -> Result<Void, RPCError>? in
                    if let ended = sending.ended { return .failure(ended) }
                    if sending.unsent <= lowWatermark { return .success(()) }
                    sending.parked = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } catch {
            throw RPCError(mapping: error)
        }
    }

    /// `count` request bytes left (nghttp2 read them, or `count` is negative: the framed size
    /// of a compressed message differed from the count the caller made); called on the event loop.
    func requestBytesLeft(_ count: Int) {
        let waiting = sending.withLock { sending -> CheckedContinuation<Void, any Error>? in
            sending.unsent -= count
            guard sending.unsent <= lowWatermark else { return nil }
            defer { sending.parked = nil }
            return sending.parked
        }
        waiting?.resume()
    }

    /// The call ended: a caller waiting to send gets `error`, and so does every later send.
    func sendingEnded(_ error: RPCError) {
        let waiting = sending.withLock { sending -> CheckedContinuation<Void, any Error>? in
            if sending.ended == nil { sending.ended = error }
            defer { sending.parked = nil }
            return sending.parked
        }
        waiting?.resume(throwing: error)
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
