/// Opens calls on a connection; implemented by the HTTP/2 transport.
public protocol ClientTransport: Sendable {
    /// The `content-type` its calls send, which chooses how messages are encoded.
    var contentType: String { get }

    /// The codec of its calls' messages; by default the built-in one `contentType` names
    /// (JSON when it names none).
    var messageCodec: any MessageCodec { get }

    /// Starts a call: sends the request headers and returns the stream.
    func openCall(_ method: MethodDescriptor, options: CallOptions) async throws(RPCError) -> any ClientCallStream
}

/// One outbound call as the transport presents it.
public protocol ClientCallStream: Sendable {
    /// Sends one request message; `endOfStream` half-closes the request side. Suspends while
    /// the server is not reading. Throws once the call has ended; the call's outcome is then
    /// what `receive()` returns or throws.
    func send(_ message: [UInt8], endOfStream: Bool) async throws(RPCError)

    /// Half-closes the request side without a message: the client sends no more. Throws, as
    /// `send` does, once the call has ended.
    func endRequests() async throws(RPCError)

    /// The next response message; `nil` once the call ended with OK. A non-OK end throws
    /// its `RPCError`, carrying message, detail and trailing metadata.
    func receive() async throws(RPCError) -> [UInt8]?

    /// The response headers' metadata, once they arrived.
    var initialMetadata: Metadata? { get }

    /// The trailers' metadata, once the call ended.
    var trailingMetadata: Metadata? { get }

    /// Abandons the call (RST_STREAM CANCEL); pending and later receives throw CANCELLED.
    func cancel()
}

extension ClientTransport {
    /// `application/grpc`: JSON.
    public var contentType: String { ContentType.grpc.headerValue }

    /// The built-in codec `contentType` names; JSON when it names none.
    public var messageCodec: any MessageCodec { ContentType(headerValue: contentType)?.codec ?? JSONCodec.shared }
}
