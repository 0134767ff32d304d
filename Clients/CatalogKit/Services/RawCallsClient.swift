import CatalogAPI
import RPCCore

/// Calls any method by its path with request and response messages as JSON bytes, for tools
/// such as `catalog call`; get one from ``CatalogClient/raw``.
///
/// ```swift
/// let responses = try await catalog.raw.call("catalog.v1.Categories/Get", request: Array(#"{"id": 3}"#.utf8))
/// for try await message in responses {
///     print(String(decoding: message, as: UTF8.self))   // {"id":3,"name":"Sports",…}
/// }
/// ```
///
/// Unary and server-streaming methods are called the same way: the sequence yields each
/// response message as the server sends it, one for a unary method. The bytes are sent and
/// returned as they are, not re-encoded, unless the client's codec is CBOR: then the request
/// is sent as its CBOR and each response returned as JSON (keys sorted). Raw calls are never retried, since the method may
/// be a write.
public struct RawCallsClient: Sendable {
    private let runner: CallRunner

    init(runner: CallRunner) { self.runner = runner }

    /// Starts a call of the method at `path` with `request` as its one request message.
    ///
    /// - Parameters:
    ///   - path: `service/Method` or `/service/Method`, e.g. `catalog.v1.Categories/List`.
    ///   - request: The JSON request message; an empty array is the message `{}`.
    ///   - options: Per-call settings such as a timeout or a token, laid over the client's defaults.
    /// - Returns: The response messages; iterating it throws `RPCError` when the call ends
    ///   with an error, and releasing it cancels the call.
    /// - Throws: `RPCError` INVALID_ARGUMENT for a malformed path (nothing is sent), or the
    ///   error that kept the call from starting.
    public func call(_ path: String, request: [UInt8], options: CallOptions = .defaults) async throws -> RawResponseStream {
        let method = try Self.method(atPath: path)
        let carriesCBOR = runner.rpc.transport.contentType == ContentType.grpcCBOR.headerValue
        let message = carriesCBOR ? try JSONCBORBridge.cbor(fromJSON: request) : request
        let transport = runner.rpc.transport
        let context = ClientCallContext(method: method, options: try await runner.resolved(options, over: runner.defaults))
        return try await runner.openStreams.open { () async throws(RPCError) in
            let call = try await runner.rpc.interceptors.openStream(context) { (context) async throws(RPCError) in
                let call = try await transport.openCall(method, options: context.options)
                // A send that finds the call ended (refused before its request went out) is not
                // the call's outcome: the stream's end has it.
                try? await call.send(message, endOfStream: true)
                return call
            }
            return RawResponseStream(call: call, asJSONFromCBOR: carriesCBOR)
        }
    }

    /// The method named by `path` (`service/Method`, with or without the leading `/`).
    static func method(atPath path: String) throws(RPCError) -> MethodDescriptor {
        let parts = path.drop { $0 == "/" }.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
            !path.contains(where: { $0.isWhitespace })
        else {
            throw RPCError(.invalidArgument, "'\(path)' is not a method path such as catalog.v1.Categories/List")
        }
        return MethodDescriptor(service: String(parts[0]), method: String(parts[1]), kind: .serverStreaming)
    }
}
