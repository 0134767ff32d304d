import Foundation
import RPCCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client transport over Foundation's URLSession, speaking the Connect protocol
/// (connectrpc.com/docs/protocol): for apps on Apple platforms, with no C library and no
/// SwiftNIO. An `RPCHTTP2` server serves Connect on its gRPC port.
///
/// Unary calls are Connect unary POSTs whose body is the bare message; server-streaming calls
/// (a Watch) are Connect streams of envelopes read as they arrive. Client-streaming and
/// bidirectional calls fail with UNIMPLEMENTED: over HTTP/1.1 a request must end before
/// its answer begins. Errors arrive as the same `RPCError` as over gRPC, with the detail of the
/// type `errorDetailNames` names, and a server that cannot be reached is UNAVAILABLE.
///
/// A call's deadline is sent as `connect-timeout-ms` and also kept here: a call whose server
/// does not answer ends with DEADLINE_EXCEEDED at its deadline. Cancelling a call cancels its
/// URLSession task.
///
/// Messages of a stream are queued as URLSession delivers them, up to the size of each
/// message (4 MiB): the wait for the caller to read is left to URLSession and TCP.
///
/// On Linux, URLSession sends cleartext `http://` over HTTP/1.1, which Connect is made for;
/// on Apple platforms it uses HTTP/2 where TLS offers it.
///
/// Give it to `RPCClient`, or to any client that takes a transport.
public struct URLSessionTransport: ClientTransport {
    /// Where the service's paths start, e.g. `http://127.0.0.1:50051`.
    public let baseURL: URL
    /// How messages are encoded.
    public let codec: Codec
    /// The names of the service's error details, of which this transport reads the Connect type.
    public let errorDetailNames: ErrorDetailNames
    private let session: TransportSession

    /// A transport whose calls go to `baseURL`.
    ///
    /// - Parameters:
    ///   - baseURL: The server's URL without a path, e.g. `https://api.example.com`; each
    ///     call posts to `baseURL/<service>/<Method>`.
    ///   - codec: `.json` (the default), `.cbor`, or `.custom(_:)` of a codec of one's own.
    ///   - configuration: The URLSession's configuration, read once: its timeouts, cookies,
    ///     proxies and connection limits. Default `.default`.
    ///   - errorDetailNames: The names the service gives its error details. Default
    ///     `ErrorDetailNames.generic`.
    public init(
        baseURL: URL, codec: Codec = .json, configuration: URLSessionConfiguration = .default,
        errorDetailNames: ErrorDetailNames = .generic
    ) {
        self.baseURL = baseURL
        self.codec = codec
        self.errorDetailNames = errorDetailNames
        self.session = TransportSession(configuration: configuration)
    }

    /// The gRPC content type whose codec `RPCClient` encodes messages with:
    /// `application/grpc` (JSON), `application/grpc+cbor`, or `application/grpc+name` of a
    /// codec of one's own. On the wire the calls carry Connect's content types of the same codec.
    public var contentType: String { codec.clientContentType.headerValue }

    /// The codec messages are encoded with.
    public var messageCodec: any MessageCodec { codec.clientContentType.codec }

    /// Opens a call of `method`; its request goes out with the first `send`.
    ///
    /// - Parameters:
    ///   - method: The method to call: unary or server streaming.
    ///   - options: The call's timeout and metadata (a bearer token among it).
    /// - Returns: The call's stream.
    /// - Throws: `RPCError` UNIMPLEMENTED for a client-streaming or bidirectional method.
    public func openCall(_ method: MethodDescriptor, options: CallOptions) async throws(RPCError) -> any ClientCallStream {
        guard !method.kind.clientStreaming else {
            throw RPCError(
                .unimplemented,
                "\(method.path) is \(method.kind): URLSessionTransport speaks Connect over HTTP/1.1, which carries unary and server-streaming calls only")
        }
        let call = URLSessionCall(
            method: method, options: options, codec: codec, baseURL: baseURL, session: session, errorDetailNames: errorDetailNames)
        call.startDeadline()
        return call
    }
}
