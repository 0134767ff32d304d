/// What answers the calls of one method, and how those calls run: the handler given to
/// `Router.register(_:_:)`.
///
/// The execution policy is in the name:
/// - `.task`: the call runs in a task of its own. The handler may suspend and take its time;
///   it is cancelled when the call is aborted (client reset, deadline, lost connection).
/// - `.inline`: the transport runs the handler where the request completes (a connection's
///   event loop), with no task and no thread hop. For work that never suspends and takes
///   microseconds, such as a lookup in memory or a point read: the handler must not block,
///   and it is not cancelled.
///
/// What the handler answers with is in its signature: a message, a message encoded already
/// (`encoded:`, see `EncodedMessage`), a `UnaryResponder` that answers later (`responder:`),
/// a `ResponseStreamWriter`, or a pulled `ResponseSource` (`source:`).
///
/// ```swift
/// router.register(Items.get, .inline { request, context in try cache.item(request.id) })
/// router.register(Items.create, .task { request, context in try await store.create(request) })
/// router.register(Items.watch, .inline(source: { request, context, waker in hub.subscribe(request, waker) }))
/// ```
public struct MethodHandler<Method: RPCMethod>: Sendable {
    /// The route's body for the method the handler is registered for.
    let body: @Sendable (MethodDescriptor) -> Route.Body

    private init(body: @escaping @Sendable (MethodDescriptor) -> Route.Body) {
        self.body = body
    }
}

// MARK: Unary

extension MethodHandler {
    /// A unary handler run in a task.
    public static func task<Request, Response>(
        _ handler: @escaping @Sendable (Request, ServerContext) async throws -> Response
    ) -> Self where Method == UnaryMethod<Request, Response> {
        Self { _ in unaryTask { request, context, codec in try codec.encode(try await handler(request, context)) } }
    }

    /// A unary handler run in a task that answers with a message it already encoded with the
    /// call's codec (`context.contentType.codec`), typically kept in an `EncodedMessageCache`.
    @_disfavoredOverload  // A trailing closure that only throws fits `task(_:)` too, and means it.
    public static func task<Request, Response>(
        encoded handler: @escaping @Sendable (Request, ServerContext) async throws -> EncodedMessage<Response>
    ) -> Self where Method == UnaryMethod<Request, Response> {
        Self { method in
            unaryTask { request, context, codec in
                try bytes(of: try await handler(request, context), encodedBy: codec, for: method)
            }
        }
    }

    /// A unary handler run inline (see `MethodHandler`).
    public static func inline<Request, Response>(
        _ handler: @escaping @Sendable (Request, ServerContext) throws -> Response
    ) -> Self where Method == UnaryMethod<Request, Response> {
        Self { _ in unaryInline { request, context, codec in try codec.encode(try handler(request, context)) } }
    }

    /// A unary handler run inline that answers with a message it already encoded with the
    /// call's codec (`context.contentType.codec`), typically kept in an `EncodedMessageCache`.
    @_disfavoredOverload  // A trailing closure that only throws fits `inline(_:)` too, and means it.
    public static func inline<Request, Response>(
        encoded handler: @escaping @Sendable (Request, ServerContext) throws -> EncodedMessage<Response>
    ) -> Self where Method == UnaryMethod<Request, Response> {
        Self { method in
            unaryInline { request, context, codec in
                try bytes(of: try handler(request, context), encodedBy: codec, for: method)
            }
        }
    }

    /// A unary handler run inline that answers through `responder`: at once when it can, or
    /// later, from any thread, when its work has to wait (a write queued behind others, for
    /// instance). The handler must not block; it answers exactly once (later answers are
    /// ignored), or throws, which answers with its error. Initial metadata must be added
    /// before the handler returns.
    public static func inline<Request, Response>(
        responder handler: @escaping @Sendable (Request, ServerContext, UnaryResponder<Response>) throws -> Void
    ) -> Self where Method == UnaryMethod<Request, Response> {
        let decoder = MessageDecoder<Request>()
        return Self { _ in
            .inlineSubscribe { requestBytes, context, waker in
                let codec = context.contentType.codec
                let pending = PendingUnaryResponse(codec: codec, context: context, waker: waker)
                try handler(try decoder.decode(requestBytes, with: codec), context, UnaryResponder(pending: pending))
                pending.handlerReturned()
                return pending
            }
        }
    }

    /// A unary call run in a task: its one request decoded with the call's codec, then
    /// answered with the bytes `respond` makes of it.
    private static func unaryTask<Request: Decodable & Sendable>(
        _ respond: @escaping @Sendable (Request, ServerContext, any MessageCodec) async throws -> [UInt8]
    ) -> Route.Body {
        let decoder = MessageDecoder<Request>()
        return .task { stream, context in
            let codec = stream.head.contentType.codec
            let request = try decoder.decode(try await Route.singleRequest(from: stream), with: codec)
            let responseBytes = try await respond(request, context, codec)
            stream.finish(lastMessage: responseBytes, initialMetadata: context.initialMetadata, trailers: .ok(context.trailingMetadata))
        }
    }

    /// A unary call answered inline: its request decoded with the call's codec, then answered
    /// with the bytes `respond` makes of it.
    private static func unaryInline<Request: Decodable & Sendable>(
        _ respond: @escaping @Sendable (Request, ServerContext, any MessageCodec) throws -> [UInt8]
    ) -> Route.Body {
        let decoder = MessageDecoder<Request>()
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
}

// MARK: Server streaming

extension MethodHandler {
    /// A server-streaming handler run in a task, which writes the response messages.
    public static func task<Request, Response>(
        _ handler: @escaping @Sendable (Request, ResponseStreamWriter<Response>, ServerContext) async throws -> Void
    ) -> Self where Method == ServerStreamingMethod<Request, Response> {
        Self { _ in
            streamingTask { (request: Request, stream, context) in
                try await handler(request, ResponseStreamWriter(stream: stream, context: context), context)
                stream.finish(lastMessage: nil, initialMetadata: context.initialMetadata, trailers: .ok(context.trailingMetadata))
            }
        }
    }

    /// A server-streaming method served by a pulled `ResponseSource` that `subscribe` makes in
    /// a task: it returns the source (or throws the call's status before any message), and no
    /// task stays behind for the stream. The source encodes with `context.contentType.codec`
    /// and calls the waker when it has something new.
    public static func task<Request, Response>(
        source subscribe: @escaping @Sendable (Request, ServerContext, ResponseWaker) async throws -> any ResponseSource
    ) -> Self where Method == ServerStreamingMethod<Request, Response> {
        Self { _ in
            streamingTask { (request: Request, stream, context) in
                let source = try await subscribe(request, context, ResponseWaker(stream: stream))
                stream.attach(source, initialMetadata: context.initialMetadata)
            }
        }
    }

    /// A server-streaming method served by a pulled `ResponseSource` that `subscribe` makes
    /// inline (see `MethodHandler`): a subscription then costs no task at all, not even while
    /// it starts. `subscribe` must not block; it throws the call's status before any message.
    public static func inline<Request, Response>(
        source subscribe: @escaping @Sendable (Request, ServerContext, ResponseWaker) throws -> any ResponseSource
    ) -> Self where Method == ServerStreamingMethod<Request, Response> {
        let decoder = MessageDecoder<Request>()
        return Self { _ in
            .inlineSubscribe { requestBytes, context, waker in
                try subscribe(try decoder.decode(requestBytes, with: context.contentType.codec), context, waker)
            }
        }
    }

    /// A server-streaming call run in a task: its one request decoded with the call's codec,
    /// then served by `serve`.
    private static func streamingTask<Request: Decodable & Sendable>(
        _ serve: @escaping @Sendable (Request, any ServerCallStream, ServerContext) async throws -> Void
    ) -> Route.Body {
        let decoder = MessageDecoder<Request>()
        return .task { stream, context in
            let request = try decoder.decode(try await Route.singleRequest(from: stream), with: stream.head.contentType.codec)
            try await serve(request, stream, context)
        }
    }
}
