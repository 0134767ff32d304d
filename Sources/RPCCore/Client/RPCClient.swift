/// Typed calls over a client transport.
///
/// ```swift
/// let client = RPCClient(transport: connection)
/// let reply = try await client.unary(Health.check, HealthCheckRequest())
/// ```
public struct RPCClient: Sendable {
    /// The transport calls go through.
    public let transport: any ClientTransport
    /// What runs around each call, the first outermost (see ``ClientInterceptor``).
    public let interceptors: [any ClientInterceptor]
    let codec: any MessageCodec

    /// A client whose calls go through `interceptors`, then `transport`, encoded by the
    /// transport's codec.
    ///
    /// - Parameters:
    ///   - transport: Where the calls go.
    ///   - interceptors: What runs around each call, the first outermost.
    public init(transport: any ClientTransport, interceptors: [any ClientInterceptor] = []) {
        self.transport = transport
        self.interceptors = interceptors
        codec = transport.messageCodec
    }

    /// Calls a unary method and returns its response.
    public func unary<Request, Response>(
        _ method: UnaryMethod<Request, Response>,
        _ request: Request,
        options: CallOptions = .defaults
    ) async throws(RPCError) -> Response {
        try await unaryResponse(method, request, options: options).message
    }

    /// Calls a unary method and returns its response with the response metadata.
    public func unaryResponse<Request, Response>(
        _ method: UnaryMethod<Request, Response>,
        _ request: Request,
        options: CallOptions = .defaults
    ) async throws(RPCError) -> UnaryResponse<Response> {
        return try await interceptors.run(ClientCallContext(method: method.descriptor, options: options)) {
            (call) async throws(RPCError) in try await send(method, request, options: call.options)
        }
    }

    /// Makes a unary call on the transport.
    private func send<Request, Response>(
        _ method: UnaryMethod<Request, Response>,
        _ request: Request,
        options: CallOptions
    ) async throws(RPCError) -> UnaryResponse<Response> {
        let call = try await transport.openCall(method.descriptor, options: options)
        return try await Self.cancellingOnTaskCancel(call) { () async throws(RPCError) in
            let bytes = try codec.encode(request)
            // A send that finds the call ended is not the call's outcome: `receive` has it.
            try? await call.send(bytes, endOfStream: true)
            return try await Self.singleResponse(of: call, codec: codec, kind: .unary)
        }
    }

    /// The one response message of a call that answers one (unary, client streaming), with its
    /// metadata; INTERNAL when the server sent none or more than one.
    static func singleResponse<Response: Decodable & Sendable>(
        of call: any ClientCallStream, codec: any MessageCodec, kind: StreamingKind
    ) async throws(RPCError) -> UnaryResponse<Response> {
        guard let bytes = try await call.receive() else {
            throw RPCError(.internalError, "the server ended a \(kind) call without a response message")
        }
        let response: Response = try decodeResponse(from: bytes, with: codec)
        if try await call.receive() != nil {
            throw RPCError(.internalError, "the server sent more than one message on a \(kind) call")
        }
        return UnaryResponse(message: response, initialMetadata: call.initialMetadata ?? [:], trailingMetadata: call.trailingMetadata ?? [:])
    }

    /// Calls a server-streaming method; iterate the result for the responses.
    /// Leaving the iteration early cancels the call.
    public func serverStreaming<Request, Response>(
        _ method: ServerStreamingMethod<Request, Response>,
        _ request: Request,
        options: CallOptions = .defaults
    ) async throws(RPCError) -> ResponseStream<Response> {
        let bytes = try codec.encode(request)
        let call = try await interceptors.openStream(ClientCallContext(method: method.descriptor, options: options)) {
            [transport] (call) async throws(RPCError) in
            let stream = try await transport.openCall(method.descriptor, options: call.options)
            // A send that finds the call ended is not the call's outcome: the stream's end has it.
            try? await stream.send(bytes, endOfStream: true)
            return stream
        }
        return ResponseStream(call: call, codec: codec)
    }

    /// A response message decoded with `codec` (by a stream's `decoder`, which found the
    /// message's own readers once). One that does not decode is INTERNAL, as in gRPC: the
    /// client cannot read what the server sent (INVALID_ARGUMENT would blame the request).
    static func decodeResponse<Response: Decodable & Sendable>(
        from bytes: [UInt8], with codec: any MessageCodec, decoder: MessageDecoder<Response>? = nil
    ) throws(RPCError) -> Response {
        do {
            if let decoder { return try decoder.decode(bytes, with: codec) }
            return try codec.decode(Response.self, from: bytes)
        } catch {
            throw RPCError(.internalError, "the server's response does not decode: \(error.message)")
        }
    }

    static func cancellingOnTaskCancel<T>(
        _ call: any ClientCallStream,
        _ body: () async throws(RPCError) -> T
    ) async throws(RPCError) -> T {
        do {
            return try await withTaskCancellationHandler {
                try await body()
            } onCancel: {
                call.cancel()
            }
        } catch let error as RPCError {
            call.cancel()
            throw error
        } catch {
            call.cancel()
            throw RPCError(mapping: error)
        }
    }
}

/// A unary response with the metadata that came with it.
public struct UnaryResponse<Message: Sendable>: Sendable {
    /// The response message.
    public var message: Message
    /// The response headers' custom metadata.
    public var initialMetadata: Metadata
    /// The trailers' custom metadata.
    public var trailingMetadata: Metadata

    /// A response of `message` with the metadata that came with it.
    ///
    /// - Parameters:
    ///   - message: The response message.
    ///   - initialMetadata: The response headers' custom metadata.
    ///   - trailingMetadata: The trailers' custom metadata.
    public init(message: Message, initialMetadata: Metadata = [:], trailingMetadata: Metadata = [:]) {
        self.message = message
        self.initialMetadata = initialMetadata
        self.trailingMetadata = trailingMetadata
    }
}
