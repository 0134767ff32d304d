/// The request messages of a client-streaming or bidirectional call, decoded, in order.
///
/// Iteration ends at the client's half-close and throws the call's status when the request
/// stream breaks (a message that does not decode is INVALID_ARGUMENT, one over the size limit
/// RESOURCE_EXHAUSTED). The transport reads from the network only as fast as the handler
/// iterates: a handler that reads slowly holds the client back. Iterate it once, from one task.
public struct RequestStream<Request: Decodable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = Request
    public typealias Failure = RPCError

    private let stream: any ServerCallStream
    private let decoder: MessageDecoder<Request>

    init(stream: any ServerCallStream, decoder: MessageDecoder<Request>) {
        self.stream = stream
        self.decoder = decoder
    }

    public func makeAsyncIterator() -> Iterator { Iterator(stream: stream, decoder: decoder) }

    /// Reads the requests one by one. It may move to another task (a handler that reads the
    /// first message, then the rest in a child task); one task at a time reads.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        let stream: any ServerCallStream
        let decoder: MessageDecoder<Request>

        public mutating func next() async throws(RPCError) -> Request? {
            try await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(RPCError) -> Request? {
            guard let bytes = try await stream.receive() else { return nil }
            return try decoder.decode(bytes, with: stream.head.contentType.codec)
        }
    }
}
