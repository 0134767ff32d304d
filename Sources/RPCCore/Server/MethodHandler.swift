/// What answers the calls of one method: the handler given to `Router.register(_:_:)`.
///
/// Every handler has one shape underneath, a streaming core that reads the call's request
/// messages and writes its response; the conveniences below make it from a closure per kind of
/// call. How the calls run is an attribute, the `ExecutionPolicy` (`.task` unless told), which
/// the transport reads. The closure may be `async` or not: an inline handler written without
/// `async` (a lookup in memory, a read from an embedded database that answers at once) is
/// answered with no task at all, which costs a call less than starting one.
///
/// What a handler answers with is in its signature: a message, a message encoded already
/// (`encoded:`, see `EncodedMessage`), messages written to a `ResponseStreamWriter`, or a pulled
/// `ResponseSource` (`source:`).
///
/// ```swift
/// router.register(Items.get, .unary(.inline) { request, context in try cache.item(request.id) })
/// router.register(Items.select, .unary(.inline) { request, context in try await store.select(request) })
/// router.register(Items.create, .unary { request, context in try await store.create(request) })
/// router.register(Items.watch, .serverStreaming(.inline, source: { request, context, waker in hub.subscribe(request, waker) }))
/// router.register(Items.import, .clientStreaming { requests, context in try await store.import(requests) })
/// router.register(Chat.talk, .bidirectionalStreaming { requests, responses, context in
///     for try await line in requests { try await responses.write(reply(to: line)) }
/// })
/// ```
public struct MethodHandler<Method: RPCMethod>: Sendable {
    /// How the method's calls run.
    public let policy: ExecutionPolicy
    /// The streaming core for the method the handler is registered for.
    let core: @Sendable (MethodDescriptor) -> Route.Core

    init(_ policy: ExecutionPolicy, core: @escaping @Sendable (MethodDescriptor) -> Route.Core) {
        self.policy = policy
        self.core = core
    }
}

// MARK: Unary

extension MethodHandler {
    /// A unary handler: one request message in, one response message out.
    public static func unary<Request, Response>(
        _ policy: ExecutionPolicy = .task,
        _ handler: @escaping @Sendable (Request, ServerContext) async throws -> Response
    ) -> Self where Method == UnaryMethod<Request, Response> {
        Self(policy) { _ in unaryCore { request, context, codec in try codec.encode(try await handler(request, context)) } }
    }

    /// A unary handler written without `async`.
    public static func unary<Request, Response>(
        _ policy: ExecutionPolicy = .task,
        _ handler: @escaping @Sendable (Request, ServerContext) throws -> Response
    ) -> Self where Method == UnaryMethod<Request, Response> {
        Self(policy) { _ in immediateUnaryCore { request, context, codec in try codec.encode(try handler(request, context)) } }
    }

    /// A unary handler that answers with a message it already encoded with the call's codec
    /// (`context.contentType.codec`), typically kept from one call to the next.
    @_disfavoredOverload  // A trailing closure that only throws fits `unary(_:_:)` too, and means it.
    public static func unary<Request, Response>(
        _ policy: ExecutionPolicy = .task,
        encoded handler: @escaping @Sendable (Request, ServerContext) async throws -> EncodedMessage<Response>
    ) -> Self where Method == UnaryMethod<Request, Response> {
        Self(policy) { method in
            unaryCore { request, context, codec in try bytes(of: try await handler(request, context), encodedBy: codec, for: method) }
        }
    }

    /// A unary handler written without `async` that answers with a message it already encoded
    /// with the call's codec.
    @_disfavoredOverload  // A trailing closure that only throws fits `unary(_:_:)` too, and means it.
    public static func unary<Request, Response>(
        _ policy: ExecutionPolicy = .task,
        encoded handler: @escaping @Sendable (Request, ServerContext) throws -> EncodedMessage<Response>
    ) -> Self where Method == UnaryMethod<Request, Response> {
        Self(policy) { method in
            immediateUnaryCore { request, context, codec in try bytes(of: try handler(request, context), encodedBy: codec, for: method) }
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

    /// The core of a unary call: its one request decoded with the call's codec, then answered
    /// with the bytes `respond` makes of it.
    private static func unaryCore<Request: Decodable & Sendable>(
        _ respond: @escaping @Sendable (Request, ServerContext, any MessageCodec) async throws -> [UInt8]
    ) -> Route.Core {
        let decoder = MessageDecoder<Request>()
        return Route.Core { stream, context in
            let codec = context.contentType.codec
            let request = try decoder.decode(try await Route.singleRequest(from: stream), with: codec)
            let responseBytes = try await respond(request, context, codec)
            stream.finish(lastMessage: responseBytes, initialMetadata: context.initialMetadata, trailers: .ok(context.trailingMetadata))
        }
    }

    /// The core of a unary call whose handler is not `async`: `Route.Core.immediate`.
    private static func immediateUnaryCore<Request: Decodable & Sendable>(
        _ respond: @escaping @Sendable (Request, ServerContext, any MessageCodec) throws -> [UInt8]
    ) -> Route.Core {
        let decoder = MessageDecoder<Request>()
        return Route.Core(immediate: { requestBytes, context, _ in
            let codec = context.contentType.codec
            return .message(try respond(try decoder.decode(requestBytes, with: codec), context, codec))
        })
    }
}

// MARK: Server streaming

extension MethodHandler {
    /// A server-streaming handler that writes the response messages; the call ends OK when it
    /// returns, with the status of its error when it throws.
    public static func serverStreaming<Request, Response>(
        _ policy: ExecutionPolicy = .task,
        _ handler: @escaping @Sendable (Request, ResponseStreamWriter<Response>, ServerContext) async throws -> Void
    ) -> Self where Method == ServerStreamingMethod<Request, Response> {
        Self(policy) { _ in
            streamingCore { (request: Request, stream, context) in
                try await handler(request, ResponseStreamWriter(stream: stream, context: context), context)
                stream.finish(lastMessage: nil, initialMetadata: context.initialMetadata, trailers: .ok(context.trailingMetadata))
            }
        }
    }

    /// A server-streaming method served by a pulled `ResponseSource` that `subscribe` makes: it
    /// returns the source (or throws the call's status before any message), and the handler's
    /// task ends there, so a long, mostly idle stream holds no task. The source encodes with
    /// `context.contentType.codec` and calls the waker when it has something new.
    public static func serverStreaming<Request, Response>(
        _ policy: ExecutionPolicy = .task,
        source subscribe: @escaping @Sendable (Request, ServerContext, ResponseWaker) async throws -> any ResponseSource
    ) -> Self where Method == ServerStreamingMethod<Request, Response> {
        Self(policy) { _ in
            streamingCore { (request: Request, stream, context) in
                let source = try await subscribe(request, context, ResponseWaker(stream: stream))
                stream.attach(source, initialMetadata: context.initialMetadata)
            }
        }
    }

    /// A server-streaming method served by a pulled `ResponseSource` that `subscribe`, written
    /// without `async`, makes.
    public static func serverStreaming<Request, Response>(
        _ policy: ExecutionPolicy = .task,
        source subscribe: @escaping @Sendable (Request, ServerContext, ResponseWaker) throws -> any ResponseSource
    ) -> Self where Method == ServerStreamingMethod<Request, Response> {
        let decoder = MessageDecoder<Request>()
        return Self(policy) { _ in
            Route.Core(immediate: { requestBytes, context, waker in
                .source(try subscribe(try decoder.decode(requestBytes, with: context.contentType.codec), context, waker()))
            })
        }
    }

    /// The core of a server-streaming call: its one request decoded with the call's codec,
    /// then served by `serve`.
    private static func streamingCore<Request: Decodable & Sendable>(
        _ serve: @escaping @Sendable (Request, any ServerCallStream, ServerContext) async throws -> Void
    ) -> Route.Core {
        let decoder = MessageDecoder<Request>()
        return Route.Core { stream, context in
            let request = try decoder.decode(try await Route.singleRequest(from: stream), with: context.contentType.codec)
            try await serve(request, stream, context)
        }
    }
}
