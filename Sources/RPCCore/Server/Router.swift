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
        add(method.descriptor, Self.unaryTask { request, context, codec in
            try codec.encode(try await handler(request, context))
        })
    }

    /// Registers a unary handler that answers with a message it already encoded with the
    /// call's codec (`context.contentType.codec`), typically kept in an `EncodedMessageCache`.
    ///
    /// (A name of its own: a trailing closure that only throws would fit `register` too.)
    public mutating func registerEncoded<Request, Response>(
        _ method: UnaryMethod<Request, Response>,
        handler: @escaping @Sendable (Request, ServerContext) async throws -> EncodedMessage<Response>
    ) {
        add(method.descriptor, Self.unaryTask { request, context, codec in
            try Self.bytes(of: try await handler(request, context), encodedBy: codec, for: method.descriptor)
        })
    }

    /// Registers a unary handler that runs inline: the transport calls it where the request
    /// completes (a connection's event loop), with no task and no thread hop. For work that
    /// never suspends and takes microseconds, such as a lookup in memory or a point read; it
    /// is not cancelled, so anything slower belongs in an `async` handler.
    ///
    /// (A name of its own, not an overload of `register`: a closure that happens not to be
    /// `async` must not change how its calls run.)
    public mutating func registerInline<Request, Response>(
        _ method: UnaryMethod<Request, Response>,
        handler: @escaping @Sendable (Request, ServerContext) throws -> Response
    ) {
        add(method.descriptor, Self.unaryInline { request, context, codec in
            try codec.encode(try handler(request, context))
        })
    }

    /// Registers a unary handler that runs inline, like `registerInline(_:handler:)`, and
    /// answers with a message it already encoded with the call's codec
    /// (`context.contentType.codec`), typically kept in an `EncodedMessageCache`.
    public mutating func registerInlineEncoded<Request, Response>(
        _ method: UnaryMethod<Request, Response>,
        handler: @escaping @Sendable (Request, ServerContext) throws -> EncodedMessage<Response>
    ) {
        add(method.descriptor, Self.unaryInline { request, context, codec in
            try Self.bytes(of: try handler(request, context), encodedBy: codec, for: method.descriptor)
        })
    }

    /// A unary call run in a task: its one request decoded with the call's codec, then
    /// answered with the bytes `respond` makes of it.
    private static func unaryTask<Request: Decodable & Sendable>(
        _ respond: @escaping @Sendable (Request, ServerContext, any MessageCodec) async throws -> [UInt8]
    ) -> Route.Body {
        let decoder = RequestDecoder<Request>()
        return .task { stream, context in
            let codec = stream.head.contentType.codec
            let request = try decoder.decode(try await singleRequest(from: stream), with: codec)
            let responseBytes = try await respond(request, context, codec)
            stream.finish(lastMessage: responseBytes, initialMetadata: context.initialMetadata, trailers: .ok(context.trailingMetadata))
        }
    }

    /// A unary call answered inline: its request decoded with the call's codec, then answered
    /// with the bytes `respond` makes of it.
    private static func unaryInline<Request: Decodable & Sendable>(
        _ respond: @escaping @Sendable (Request, ServerContext, any MessageCodec) throws -> [UInt8]
    ) -> Route.Body {
        let decoder = RequestDecoder<Request>()
        return .inline { requestBytes, context in
            let codec = context.contentType.codec
            return try respond(try decoder.decode(requestBytes, with: codec), context, codec)
        }
    }

    /// The bytes of an encoded response, when `codec` made them (INTERNAL otherwise).
    private static func bytes<Response>(
        of response: EncodedMessage<Response>, encodedBy codec: any MessageCodec, for method: MethodDescriptor
    ) throws(RPCError) -> [UInt8] {
        guard response.isEncoded(by: codec) else {
            throw RPCError(.internalError, "\(method.path) answered in another codec's encoding")
        }
        return response.bytes
    }

    /// Registers a unary handler that runs inline, like `registerInline(_:handler:)`, and
    /// answers through `responder`: at once when it can, or later, from any thread, when its
    /// work has to wait (a write queued behind others, for instance). The handler must not
    /// block; it answers exactly once (later answers are ignored), or throws, which answers
    /// with its error. Initial metadata must be added before the handler returns.
    public mutating func registerInline<Request, Response>(
        _ method: UnaryMethod<Request, Response>,
        responder handler: @escaping @Sendable (Request, ServerContext, UnaryResponder<Response>) throws -> Void
    ) {
        let decoder = RequestDecoder<Request>()
        add(method.descriptor, .inlineSubscribe { requestBytes, context, waker in
            let codec = context.contentType.codec
            let pending = PendingUnaryResponse(codec: codec, context: context, waker: waker)
            try handler(try decoder.decode(requestBytes, with: codec), context, UnaryResponder(pending: pending))
            pending.handlerReturned()
            return pending
        })
    }

    /// Registers a server-streaming handler.
    public mutating func register<Request, Response>(
        _ method: ServerStreamingMethod<Request, Response>,
        handler: @escaping @Sendable (Request, ResponseStreamWriter<Response>, ServerContext) async throws -> Void
    ) {
        let decoder = RequestDecoder<Request>()
        add(method.descriptor, .task { stream, context in
            let requestBytes = try await Self.singleRequest(from: stream)
            let request = try decoder.decode(requestBytes, with: stream.head.contentType.codec)
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
        let decoder = RequestDecoder<Request>()
        add(method.descriptor, .task { stream, context in
            let requestBytes = try await Self.singleRequest(from: stream)
            let request = try decoder.decode(requestBytes, with: stream.head.contentType.codec)
            let source = try await subscribe(request, context, ResponseWaker(stream: stream))
            stream.attach(source, initialMetadata: context.initialMetadata)
        })
    }

    /// Registers a server-streaming method served by a pulled `ResponseSource` that
    /// `subscribe` makes inline, where the request completes (see `registerInline(_:handler:)`):
    /// a subscription then costs no task at all, not even while it starts. `subscribe` must
    /// not block; it throws the call's status before any message.
    public mutating func registerInline<Request, Response>(
        _ method: ServerStreamingMethod<Request, Response>,
        subscribe: @escaping @Sendable (Request, ServerContext, ResponseWaker) throws -> any ResponseSource
    ) {
        let decoder = RequestDecoder<Request>()
        add(method.descriptor, .inlineSubscribe { requestBytes, context, waker in
            try subscribe(try decoder.decode(requestBytes, with: context.contentType.codec), context, waker)
        })
    }

    /// Registers every method of a service.
    public mutating func register(_ service: some RPCService) {
        service.register(into: &self)
    }

    private mutating func add(_ descriptor: MethodDescriptor, _ body: Route.Body) {
        precondition(routes[descriptor.path] == nil, "\(descriptor.path) is registered twice")
        routes[descriptor.path] = Route(descriptor: descriptor, index: routes.count, body: body)
    }

    fileprivate static func singleRequest(from stream: any ServerCallStream) async throws(RPCError) -> [UInt8] {
        guard let message = try await stream.receive() else { return try singleRequest(nil, more: false) }
        let more = try await stream.receive() != nil
        return try singleRequest(message, more: more)
    }

    /// The one message of a unary request: `first`, with `more` telling whether another followed.
    fileprivate static func singleRequest(_ first: [UInt8]?, more: Bool) throws(RPCError) -> [UInt8] {
        guard let first else {
            throw RPCError(.invalidArgument, "the call has no request message", detail: ErrorDetail(reason: "missingMessage"))
        }
        if more {
            throw RPCError(
                .invalidArgument,
                "a \(StreamingKind.unary) request must hold exactly one message",
                detail: ErrorDetail(reason: "tooManyMessages")
            )
        }
        return first
    }
}

/// A group of methods registered together.
public protocol RPCService: Sendable {
    /// Registers the service's handlers.
    func register(into router: inout Router)
}

/// One registered method and its type-erased body.
///
/// A class: a call's route is handed along several times on its way to the handler, and a
/// copy of a struct would retain each of its strings and closures every time.
public final class Route: Sendable {
    /// The method this route serves.
    public let descriptor: MethodDescriptor
    /// The route's place in registration order (0, 1, 2, …): a dense key for tables kept per
    /// method, such as a transport's metrics, so that a call needs no lookup by path.
    public let index: Int
    private let body: Body

    fileprivate enum Body {
        case task(@Sendable (any ServerCallStream, ServerContext) async throws -> Void)
        /// Request message to response message, synchronously.
        case inline(@Sendable ([UInt8], ServerContext) throws -> [UInt8])
        /// Request message to the source of the response, synchronously.
        case inlineSubscribe(@Sendable ([UInt8], ServerContext, ResponseWaker) throws -> any ResponseSource)
    }

    fileprivate init(descriptor: MethodDescriptor, index: Int, body: Body) {
        self.descriptor = descriptor
        self.index = index
        self.body = body
    }

    /// Whether a transport may answer the call with `answer(request:more:head:waker:)` where
    /// its request completes, instead of running it in a task with `run(_:)`.
    public var runsInline: Bool {
        if case .task = body { return false }
        return true
    }

    /// Runs the call to its end. The handler runs in a child task while this task waits for
    /// the call to be done; an abort (client reset, deadline, lost connection) cancels the
    /// handler. Errors become the call's status. (Inline routes run this way too, for
    /// transports that answer every call from a task.)
    public func run(_ stream: any ServerCallStream) async {
        let context = ServerContext(method: descriptor, head: stream.head)
        await withDiscardingTaskGroup { group in
            group.addTask { [self] in
                do {
                    switch body {
                    case .task(let body):
                        try await body(stream, context)
                    case .inline, .inlineSubscribe:
                        let request = try await Router.singleRequest(from: stream)
                        switch answer(request: request, context: context, waker: { ResponseWaker(stream: stream) }) {
                        case .finished(let message, let initialMetadata, let trailers):
                            stream.finish(lastMessage: message, initialMetadata: initialMetadata, trailers: trailers)
                        case .source(let source, let initialMetadata):
                            stream.attach(source, initialMetadata: initialMetadata)
                        }
                    }
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

    /// Answers an inline call (`runsInline`) whose request is complete: `request` is its first
    /// message, if any, and `more` whether another followed; `waker` makes the waker of the
    /// stream's source, for a subscription. Errors become the answer's status.
    public func answer(request: [UInt8]?, more: Bool, head: RequestHead, waker: () -> ResponseWaker) -> InlineAnswer {
        let context = ServerContext(method: descriptor, head: head)
        do {
            return answer(request: try Router.singleRequest(request, more: more), context: context, waker: waker)
        } catch {
            return .finished(message: nil, initialMetadata: context.initialMetadata, trailers: ResponseTrailers(error: error))
        }
    }

    private func answer(request: [UInt8], context: ServerContext, waker: () -> ResponseWaker) -> InlineAnswer {
        do {
            switch body {
            case .task:
                preconditionFailure("\(descriptor.path) does not run inline")
            case .inline(let body):
                let response = try body(request, context)
                return .finished(message: response, initialMetadata: context.initialMetadata, trailers: .ok(context.trailingMetadata))
            case .inlineSubscribe(let body):
                return .source(try body(request, context, waker()), initialMetadata: context.initialMetadata)
            }
        } catch {
            return .finished(
                message: nil, initialMetadata: context.initialMetadata, trailers: ResponseTrailers(error: RPCError(mapping: error)))
        }
    }
}

/// How an inline call goes on.
public enum InlineAnswer: Sendable {
    /// The whole response: the message (none when the call failed), then the trailers.
    case finished(message: [UInt8]?, initialMetadata: Metadata, trailers: ResponseTrailers)
    /// Headers with `initialMetadata`, then whatever the transport pulls from `source`.
    case source(any ResponseSource, initialMetadata: Metadata)
}
