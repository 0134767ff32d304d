import Synchronization

/// Sends the request messages of a client-streaming or bidirectional call.
///
/// `write` suspends while the server is not reading, so a producer that writes faster than
/// the server stores is held back. It throws once the call has ended (the server answered, or
/// the call failed); the call's outcome is then what the call returns or throws.
public final class RequestWriter<Request: Encodable & Sendable>: Sendable {
    private let call: any ClientCallStream
    private let codec: any MessageCodec
    /// Set once a write found the call ended.
    private let ended = Atomic(false)

    init(call: any ClientCallStream, codec: any MessageCodec) {
        self.call = call
        self.codec = codec
    }

    /// Sends one request message.
    public func write(_ request: Request) async throws(RPCError) {
        let bytes = try codec.encode(request)
        do {
            try await call.send(bytes, endOfStream: false)
        } catch {
            ended.store(true, ordering: .relaxed)
            throw error
        }
    }

    /// Whether a write found the call ended: the producer's error is then not the call's outcome.
    var foundCallEnded: Bool { ended.load(ordering: .relaxed) }
}
