import Synchronization

// MARK: Client streaming and bidirectional streaming

extension RPCClient {
    /// Calls a client-streaming method: `requests` writes the request messages, the call
    /// half-closes when it returns, and the server's one response is returned.
    ///
    /// `write` suspends while the server is not reading. When the server answers early (an
    /// error, or a response before the requests ended), `write` throws and the call's outcome
    /// is what this returns or throws. An error of `requests`' own cancels the call and is
    /// rethrown as it is. Interceptors see the whole call, as for a unary one; one that calls
    /// `next` again runs `requests` again.
    public func clientStreaming<Request, Response>(
        _ method: ClientStreamingMethod<Request, Response>,
        options: CallOptions = .defaults,
        requests: (RequestWriter<Request>) async throws -> Void
    ) async throws -> Response {
        try await clientStreamingResponse(method, options: options, requests: requests).message
    }

    /// Calls a client-streaming method with the messages of `requests`, in order, and returns
    /// its response. An error `requests` throws cancels the call and is rethrown as it is.
    public func clientStreaming<Request, Response, Requests: AsyncSequence>(
        _ method: ClientStreamingMethod<Request, Response>,
        _ requests: Requests,
        options: CallOptions = .defaults
    ) async throws -> Response where Requests.Element == Request {
        try await clientStreaming(method, options: options) { writer in
            for try await request in requests { try await writer.write(request) }
        }
    }

    /// Calls a client-streaming method (see `clientStreaming(_:options:requests:)`) and returns
    /// its response with the response metadata.
    public func clientStreamingResponse<Request, Response>(
        _ method: ClientStreamingMethod<Request, Response>,
        options: CallOptions = .defaults,
        requests: (RequestWriter<Request>) async throws -> Void
    ) async throws -> UnaryResponse<Response> {
        let producerError = ProducerError()
        do {
            return try await interceptors.run(ClientCallContext(method: method.descriptor, options: options)) {
                (call) async throws(RPCError) in
                try await stream(method, options: call.options, requests: requests, producerError: producerError)
            }
        } catch {
            throw producerError.value ?? error
        }
    }

    /// Makes a client-streaming call on the transport.
    private func stream<Request, Response>(
        _ method: ClientStreamingMethod<Request, Response>,
        options: CallOptions,
        requests: (RequestWriter<Request>) async throws -> Void,
        producerError: ProducerError
    ) async throws(RPCError) -> UnaryResponse<Response> {
        let call = try await transport.openCall(method.descriptor, options: options)
        return try await Self.cancellingOnTaskCancel(call) { () async throws(RPCError) in
            let writer = RequestWriter<Request>(call: call, codec: codec)
            try await Self.produce(requests, into: writer, of: call, producerError: producerError)
            return try await Self.singleResponse(of: call, codec: codec, kind: .clientStreaming)
        }
    }

    /// Runs `requests` into `writer`, then half-closes the call. A write that found the call
    /// ended is not an error here: the call's outcome follows from `receive()`. An error of the
    /// producer's own is kept in `producerError` and ends the call.
    private static func produce<Request>(
        _ requests: (RequestWriter<Request>) async throws -> Void,
        into writer: RequestWriter<Request>,
        of call: any ClientCallStream,
        producerError: ProducerError
    ) async throws(RPCError) {
        do {
            try await requests(writer)
        } catch {
            guard writer.foundCallEnded else {
                producerError.set(error)
                throw RPCError(.cancelled, "the request stream failed: \(error)")
            }
        }
        guard !writer.foundCallEnded else { return }
        // A failed half-close means the call ended: its outcome follows too.
        try? await call.endRequests()
    }

    /// Calls a bidirectional-streaming method: `requests` writes the request messages in a
    /// task of its own (the call half-closes when it returns) while `responses` reads the
    /// response stream; returns what `responses` returns.
    ///
    /// The call ends when `responses` returns: a call still open is then cancelled, and so is
    /// a `requests` still writing. An error of `requests`' own cancels the call and is
    /// rethrown as it is; the server's status arrives as the `RPCError` that iterating the
    /// responses throws. Interceptors see the call to its end, as for a server stream.
    public func bidirectionalStreaming<Request, Response, Result: Sendable>(
        _ method: BidirectionalStreamingMethod<Request, Response>,
        options: CallOptions = .defaults,
        requests: @escaping @Sendable (RequestWriter<Request>) async throws -> Void,
        responses: (ResponseStream<Response>) async throws -> Result
    ) async throws -> Result {
        let call = try await interceptors.openStream(ClientCallContext(method: method.descriptor, options: options)) {
            [transport] (context) async throws(RPCError) in try await transport.openCall(method.descriptor, options: context.options)
        }
        let producerError = ProducerError()
        let writer = RequestWriter<Request>(call: call, codec: codec)
        let stream = ResponseStream<Response>(call: call, codec: codec)
        return try await withTaskCancellationHandler {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        try await Self.produce(requests, into: writer, of: call, producerError: producerError)
                    } catch {
                        call.cancel()
                    }
                }
                let result: Result
                do {
                    result = try await responses(stream)
                } catch {
                    call.cancel()
                    group.cancelAll()
                    throw producerError.value ?? error
                }
                call.cancel()
                group.cancelAll()
                _ = try? await group.waitForAll()
                if let error = producerError.value { throw error }
                return result
            }
        } onCancel: {
            call.cancel()
        }
    }
}

/// The error a request producer threw of its own, kept to be rethrown as it is.
private final class ProducerError: Sendable {
    private let error = Mutex<(any Error)?>(nil)
    var value: (any Error)? { error.withLock { $0 } }
    func set(_ value: any Error) { error.withLock { $0 = value } }
}
