// MARK: Client streaming and bidirectional streaming

extension MethodHandler {
    /// A client-streaming handler: it reads the request messages (until the client's
    /// half-close, or as many as it wants) and returns the one response. It may answer before
    /// the requests end; what it has not read is then dropped. Its calls run as tasks: a
    /// request stream arrives over time.
    public static func clientStreaming<Request, Response>(
        _ handler: @escaping @Sendable (RequestStream<Request>, ServerContext) async throws -> Response
    ) -> Self where Method == ClientStreamingMethod<Request, Response> {
        let decoder = MessageDecoder<Request>()
        return Self(.task) { _ in
            Route.Core { stream, context in
                let response = try await handler(RequestStream(stream: stream, decoder: decoder), context)
                let bytes = try context.contentType.codec.encode(response)
                stream.finish(lastMessage: bytes, initialMetadata: context.initialMetadata, trailers: .ok(context.trailingMetadata))
            }
        }
    }

    /// A bidirectional-streaming handler: it reads the request messages and writes response
    /// messages independently, in any order; the call ends OK when it returns, with the status
    /// of its error when it throws. Its calls run as tasks.
    public static func bidirectionalStreaming<Request, Response>(
        _ handler: @escaping @Sendable (RequestStream<Request>, ResponseStreamWriter<Response>, ServerContext) async throws -> Void
    ) -> Self where Method == BidirectionalStreamingMethod<Request, Response> {
        let decoder = MessageDecoder<Request>()
        return Self(.task) { _ in
            Route.Core { stream, context in
                let requests = RequestStream<Request>(stream: stream, decoder: decoder)
                try await handler(requests, ResponseStreamWriter(stream: stream, context: context), context)
                stream.finish(lastMessage: nil, initialMetadata: context.initialMetadata, trailers: .ok(context.trailingMetadata))
            }
        }
    }
}
