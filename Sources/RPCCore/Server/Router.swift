/// Maps `:path` to typed handlers.
///
/// ```swift
/// var router = Router()
/// router.register(Health.check) { request, context in HealthCheckResponse(status: .serving) }
/// ```
public struct Router: Sendable {
    private var routes: [String: Route] = [:]

    /// Decides which calls may run; `nil` (the default) lets every call through.
    public var authorizer: (any CallAuthorizer)?

    public init() {}

    /// Every registered method, sorted by path.
    public var methods: [MethodDescriptor] { routes.values.map(\.descriptor).sorted { $0.path < $1.path } }

    /// The route for a `:path`, if one is registered.
    public func route(for path: String) -> Route? { routes[path] }

    /// Whether the call `head` may run `route`, as the authorizer decides (without one: yes,
    /// anonymously). Transports call it before they read the request or run the route.
    public func authorize(_ head: RequestHead, for route: Route) -> CallAuthorization {
        authorizer?.authorize(head, for: route.descriptor) ?? .allow(caller: nil)
    }

    /// Registers a unary handler.
    public mutating func register<Request, Response>(
        _ method: UnaryMethod<Request, Response>,
        handler: @escaping @Sendable (Request, ServerContext) async throws -> Response
    ) {
        add(Route(descriptor: method.descriptor) { stream, context in
            let codec = stream.head.contentType.codec
            let requestBytes = try await Self.singleRequest(from: stream)
            let request = try codec.decode(Request.self, from: requestBytes)
            let response = try await handler(request, context)
            let responseBytes = try codec.encode(response)
            stream.finish(lastMessage: responseBytes, initialMetadata: context.initialMetadata, trailers: .ok(context.trailingMetadata))
        })
    }

    /// Registers a server-streaming handler.
    public mutating func register<Request, Response>(
        _ method: ServerStreamingMethod<Request, Response>,
        handler: @escaping @Sendable (Request, ResponseStreamWriter<Response>, ServerContext) async throws -> Void
    ) {
        add(Route(descriptor: method.descriptor) { stream, context in
            let requestBytes = try await Self.singleRequest(from: stream)
            let request = try stream.head.contentType.codec.decode(Request.self, from: requestBytes)
            try await handler(request, ResponseStreamWriter(stream: stream, context: context), context)
            stream.finish(lastMessage: nil, initialMetadata: context.initialMetadata, trailers: .ok(context.trailingMetadata))
        })
    }

    /// Registers a server-streaming method served by a pulled `ResponseSource`: `subscribe`
    /// returns the source (or throws the call's status before any message), and no task
    /// stays behind for the stream. The source encodes with `context.contentType.codec` and
    /// calls the waker when it has something new.
    public mutating func register<Request, Response>(
        _ method: ServerStreamingMethod<Request, Response>,
        subscribe: @escaping @Sendable (Request, ServerContext, ResponseWaker) async throws -> any ResponseSource
    ) {
        add(Route(descriptor: method.descriptor) { stream, context in
            let requestBytes = try await Self.singleRequest(from: stream)
            let request = try stream.head.contentType.codec.decode(Request.self, from: requestBytes)
            let source = try await subscribe(request, context, ResponseWaker(stream: stream))
            stream.attach(source, initialMetadata: context.initialMetadata)
        })
    }

    /// Registers every method of a service.
    public mutating func register(_ service: some RPCService) {
        service.register(into: &self)
    }

    private mutating func add(_ route: Route) {
        precondition(routes[route.descriptor.path] == nil, "\(route.descriptor.path) is registered twice")
        var route = route
        route.index = routes.count
        routes[route.descriptor.path] = route
    }

    private static func singleRequest(from stream: any ServerCallStream) async throws(RPCError) -> [UInt8] {
        guard let message = try await stream.receive() else {
            throw RPCError(.invalidArgument, "the call has no request message", detail: ErrorDetail(reason: "missingMessage"))
        }
        if try await stream.receive() != nil {
            throw RPCError(
                .invalidArgument,
                "a \(StreamingKind.unary) request must hold exactly one message",
                detail: ErrorDetail(reason: "tooManyMessages")
            )
        }
        return message
    }
}

/// A group of methods registered together.
public protocol RPCService: Sendable {
    /// Registers the service's handlers.
    func register(into router: inout Router)
}

/// One registered method and its type-erased body.
public struct Route: Sendable {
    /// The method this route serves.
    public let descriptor: MethodDescriptor
    /// The route's place in registration order (0, 1, 2, …): a dense key for tables kept per
    /// method, such as a transport's metrics, so that a call needs no lookup by path.
    public internal(set) var index = 0
    let body: @Sendable (any ServerCallStream, ServerContext) async throws -> Void

    /// Runs the call to its end. The handler runs in a child task while this task waits for
    /// the call to be done; an abort (client reset, deadline, lost connection) cancels the
    /// handler. Errors become the call's status.
    public func run(_ stream: any ServerCallStream) async {
        let context = ServerContext(method: descriptor, head: stream.head)
        await withDiscardingTaskGroup { group in
            group.addTask {
                do {
                    try await body(stream, context)
                } catch {
                    stream.finish(
                        lastMessage: nil,
                        initialMetadata: context.initialMetadata,
                        trailers: ResponseTrailers(error: RPCError(mapping: error))
                    )
                }
            }
            await stream.waitUntilDone()
            group.cancelAll()
        }
    }
}
