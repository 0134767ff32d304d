/// A transport that calls a `Router` in the same process: no socket, no HTTP, the router's own
/// handlers, authorizer and codec. For tests of code that calls a service, and for embedding a
/// service in a process that also calls it.
///
/// Calls behave as they do over a network: request and response messages are encoded and
/// decoded, an authorizer's refusal and a handler's error arrive as the same `RPCError`
/// (cut to the same sizes as on the wire), deadlines end a call with DEADLINE_EXCEEDED,
/// cancelling a call cancels its handler, and a pulled response stream (a subscription) is
/// pulled as the client reads it.
///
/// ```swift
/// var router = Router()
/// router.register(Health.check, .unary { _, _ in HealthCheckResponse(status: .serving) })
/// let client = RPCClient(transport: InProcessTransport(router: router))
/// let answer = try await client.unary(Health.check, HealthCheckRequest())
/// ```
public struct InProcessTransport: ClientTransport {
    public let router: Router
    /// How messages are encoded.
    private let codec: ContentType
    /// The connection every call of this transport comes on, as a server's limits see it.
    private let connection: ConnectionIdentity

    /// A transport whose calls `router` answers in this process.
    ///
    /// - Parameters:
    ///   - router: The handlers that answer the calls.
    ///   - codec: How messages are encoded: `.grpc` (JSON, the default), `.grpcCBOR`, or the
    ///     ``ContentType/grpc(_:)`` of a codec of one's own.
    public init(router: Router, codec: ContentType = .grpc) {
        self.router = router
        self.codec = codec
        self.connection = .next(peerAddress: nil)
    }

    public var contentType: String { codec.headerValue }

    public var messageCodec: any MessageCodec { codec.codec }

    public func openCall(_ method: MethodDescriptor, options: CallOptions) async throws(RPCError) -> any ClientCallStream {
        let head = RequestHead(
            path: method.path, contentType: codec, metadata: options.metadata,
            deadline: options.timeout.map { .now + $0 }, peer: "in-process", connection: connection)
        guard let route = router.route(for: method.path) else {
            return InProcessCall(refusedWith: RPCError(.unimplemented, "unknown method '\(method.path)'"), head: head).client
        }
        let authorization = router.authorize(head, for: route)
        if let refusal = authorization.refusal {
            return InProcessCall(refusedWith: refusal, head: head).client
        }
        var authorized = head
        authorized.caller = authorization.caller
        let call = InProcessCall(head: authorized)
        call.start(route)
        return call.client
    }
}
