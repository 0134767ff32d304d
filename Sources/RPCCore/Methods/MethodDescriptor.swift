/// The shape of a method's message flow.
public struct StreamingKind: Hashable, Sendable, CustomStringConvertible {
    /// Whether the client sends a stream of messages.
    public let clientStreaming: Bool
    /// Whether the server answers with a stream of messages.
    public let serverStreaming: Bool

    /// One request, one response.
    public static let unary = StreamingKind(clientStreaming: false, serverStreaming: false)
    /// One request, a stream of responses.
    public static let serverStreaming = StreamingKind(clientStreaming: false, serverStreaming: true)
    /// A stream of requests, one response.
    public static let clientStreaming = StreamingKind(clientStreaming: true, serverStreaming: false)
    /// Streams both ways.
    public static let bidirectional = StreamingKind(clientStreaming: true, serverStreaming: true)

    public var description: String {
        switch (clientStreaming, serverStreaming) {
        case (false, false): "unary"
        case (false, true): "server streaming"
        case (true, false): "client streaming"
        case (true, true): "bidirectional streaming"
        }
    }
}

/// Names one method: `/<service>/<method>` on the wire.
public struct MethodDescriptor: Hashable, Sendable, CustomStringConvertible {
    /// The fully qualified service, e.g. `acme.v1.Orders`.
    public let service: String
    /// The method, e.g. `Create`.
    public let method: String
    /// How messages flow.
    public let kind: StreamingKind

    /// The method `method` of the fully qualified `service`.
    public init(service: String, method: String, kind: StreamingKind) {
        self.service = service
        self.method = method
        self.kind = kind
    }

    /// The HTTP/2 `:path`, e.g. `/acme.v1.Orders/Create`.
    public var path: String { "/\(service)/\(method)" }

    public var description: String { path }
}

/// A method with its request and response types, which `Router.register(_:_:)` takes with a
/// `MethodHandler` of the same kind.
public protocol RPCMethod: Sendable {
    /// The method's name and kind.
    var descriptor: MethodDescriptor { get }
}

/// A unary method with its request and response types.
///
/// ```swift
/// static let check = UnaryMethod<HealthCheckRequest, HealthCheckResponse>(
///     service: "grpc.health.v1.Health", method: "Check")
/// ```
public struct UnaryMethod<Request: Codable & Sendable, Response: Codable & Sendable>: RPCMethod {
    public let descriptor: MethodDescriptor

    /// The unary method `method` of the fully qualified `service`.
    public init(service: String, method: String) {
        descriptor = MethodDescriptor(service: service, method: method, kind: .unary)
    }
}

/// A server-streaming method with its request and response types.
public struct ServerStreamingMethod<Request: Codable & Sendable, Response: Codable & Sendable>: RPCMethod {
    public let descriptor: MethodDescriptor

    /// The server-streaming method `method` of the fully qualified `service`.
    public init(service: String, method: String) {
        descriptor = MethodDescriptor(service: service, method: method, kind: .serverStreaming)
    }
}

/// A client-streaming method with its request and response types: requests until the client's
/// half-close, then one response.
public struct ClientStreamingMethod<Request: Codable & Sendable, Response: Codable & Sendable>: RPCMethod {
    public let descriptor: MethodDescriptor

    /// The client-streaming method `method` of the fully qualified `service`.
    public init(service: String, method: String) {
        descriptor = MethodDescriptor(service: service, method: method, kind: .clientStreaming)
    }
}

/// A bidirectional-streaming method with its request and response types: both sides send
/// messages independently, full duplex.
public struct BidirectionalStreamingMethod<Request: Codable & Sendable, Response: Codable & Sendable>: RPCMethod {
    public let descriptor: MethodDescriptor

    /// The bidirectional-streaming method `method` of the fully qualified `service`.
    public init(service: String, method: String) {
        descriptor = MethodDescriptor(service: service, method: method, kind: .bidirectional)
    }
}

/// The empty message `{}`.
public struct Empty: Codable, Sendable, Hashable {
    /// The empty message.
    public init() {}
}
