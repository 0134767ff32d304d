/// The responses of a server-streaming call, in order.
///
/// Iteration ends after the last message of a call that ended OK and throws `RPCError`
/// for any other end. Releasing the stream before its end cancels the call.
public final class ResponseStream<Response: Decodable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = Response
    public typealias Failure = RPCError

    private let call: any ClientCallStream
    private let codec: any MessageCodec
    private let decoder = MessageDecoder<Response>()

    init(call: any ClientCallStream, codec: any MessageCodec) {
        self.call = call
        self.codec = codec
    }

    deinit { call.cancel() }

    /// The response headers' metadata, once they arrived.
    public var initialMetadata: Metadata? { call.initialMetadata }
    /// The trailers' metadata, once the call ended.
    public var trailingMetadata: Metadata? { call.trailingMetadata }

    /// Abandons the call.
    public func cancel() { call.cancel() }

    public func makeAsyncIterator() -> Iterator { Iterator(stream: self) }

    /// Reads responses one by one.
    public struct Iterator: AsyncIteratorProtocol {
        let stream: ResponseStream

        public mutating func next() async throws(RPCError) -> Response? {
            try await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(RPCError) -> Response? {
            let call = stream.call
            let (codec, decoder) = (stream.codec, stream.decoder)
            return try await RPCClient.cancellingOnTaskCancel(call) { () async throws(RPCError) -> Response? in
                guard let bytes = try await call.receive() else { return nil }
                return try RPCClient.decodeResponse(from: bytes, with: codec, decoder: decoder)
            }
        }
    }
}
