import Logging
import RPCCallLayer
import RPCCore

/// A transport that calls a `Router` in the same process: no socket and no HTTP, but the same
/// call layer as a network server's. For tests of code that calls a service, and for
/// embedding a service in a process that also calls it.
///
/// Calls behave as they do over a network because they go through the server's call layer:
/// request and response messages are encoded, framed and decoded; the request head is checked
/// against the same limits; an authorizer's refusal and a handler's error arrive as the same
/// `RPCError` (cut to the same sizes as on the wire); deadlines end a call with
/// DEADLINE_EXCEEDED; cancelling a call cancels its handler; handlers run inline or in a task
/// as their execution policy says; a pulled response stream (a subscription) is pulled as the
/// client reads it; buffer budgets, the server's metrics and its access log count these calls
/// too. A transport is one connection: its calls run on one serial queue, as a network
/// connection's run on its event loop, which handlers must not block.
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
    /// The connection every call of this transport comes on, closed once no copy of the
    /// transport and no call of it is left.
    private let connection: ConnectionOwner

    /// A transport whose calls `router` answers in this process.
    ///
    /// - Parameters:
    ///   - router: The handlers that answer the calls.
    ///   - codec: How messages are encoded: `.grpc` (JSON, the default), `.grpcCBOR`, or the
    ///     ``ContentType/grpc(_:)`` of a codec of one's own (which `router` must list in its
    ///     `additionalCodecs`).
    ///   - accessLogLevel: The level of the access log's line per call; `nil` (the default):
    ///     no access log.
    ///   - logger: Where the calls' warnings and access log go.
    public init(
        router: Router, codec: ContentType = .grpc, accessLogLevel: Logger.Level? = nil,
        logger: Logger = Logger(label: "rpc.in-process")
    ) {
        self.router = router
        self.codec = codec
        var configuration = CallLayerConfiguration.defaults
        configuration.accessLogLevel = accessLogLevel
        self.connection = ConnectionOwner(
            InProcessConnection(router: router, configuration: configuration, loop: InProcessLoop(), logger: logger))
    }

    public var contentType: String { codec.headerValue }

    public var messageCodec: any MessageCodec { codec.codec }

    public func openCall(_ method: MethodDescriptor, options: CallOptions) async throws(RPCError) -> any ClientCallStream {
        InProcessClientCall(
            connection: connection.connection, owner: connection, path: method.path, contentType: codec.headerValue, options: options)
    }
}

/// Closes its connection when the last transport or call that holds it is gone.
private final class ConnectionOwner: Sendable {
    let connection: InProcessConnection

    init(_ connection: InProcessConnection) {
        self.connection = connection
    }

    deinit {
        connection.close()
    }
}
