import RPCCore

/// Runs the typed calls of the service clients: lays the call's options over the client's
/// defaults, keeps one deadline across attempts, and retries idempotent reads on UNAVAILABLE.
/// A server stream (a watch) lives as long as its reader wants: the default timeout, meant
/// for unary calls, does not bound it; only its own options' timeout does.
struct CallRunner: Sendable {
    /// Whether a method may be sent again after a failure.
    enum Idempotency {
        /// A read: retried on UNAVAILABLE.
        case read
        /// A write: never retried, since the server may have applied it.
        case write
    }

    let rpc: RPCClient
    let defaults: CallOptions
    let retry: RetryPolicy
    let tokenProvider: CatalogClient.TokenProvider?
    /// Where a client lent by `CatalogClient.withResponse(_:)` keeps its unary calls' metadata.
    var recorder: ResponseRecorder? = nil
    /// The server streams open, which closing the client ends.
    let openStreams = OpenStreams()

    /// `options` laid over the defaults, with the provider's token when the call carries none of its own.
    func resolved(_ options: CallOptions, over defaults: CallOptions) async throws(RPCError) -> CallOptions {
        var merged = options.merged(over: defaults)
        if let token = try await providedToken(for: options) { merged.bearerToken = token }
        return merged
    }

    /// The provider's token for a call whose own options are `options`: `nil` when there is no
    /// provider or the call carries its own token; `.some(nil)` when the provider gives none.
    private func providedToken(for options: CallOptions) async throws(RPCError) -> String?? {
        guard options.bearerToken == nil, let tokenProvider else { return nil }
        do {
            return .some(try await tokenProvider())
        } catch {
            throw RPCError(.unauthenticated, "the token provider failed: \(error)")
        }
    }

    /// The defaults of a server stream: the client's, their timeout left out.
    var streamDefaults: CallOptions {
        var defaults = self.defaults
        defaults.timeLimit = .inherited
        return defaults
    }

    /// `options` of a server stream laid over the client's defaults, their timeout left out.
    func streamOptions(_ options: CallOptions) -> CallOptions {
        options.merged(over: streamDefaults)
    }

    func unary<Request, Response>(
        _ method: UnaryMethod<Request, Response>,
        _ request: Request,
        options: CallOptions,
        _ idempotency: Idempotency
    ) async throws(RPCError) -> Response {
        let own = options
        var options = options.merged(over: defaults)
        let deadline = options.timeout.map { ContinuousClock.now + $0 }
        let attempts = idempotency == .read ? retry.maxAttempts : 1
        var attempt = 1
        while true {
            if let token = try await providedToken(for: own) { options.bearerToken = token }
            if let deadline {
                let remaining = deadline - .now
                guard remaining > .zero else { throw RPCError(.deadlineExceeded, "the deadline passed before attempt \(attempt)") }
                options.timeout = remaining
            }
            do throws(RPCError) {
                guard let recorder else { return try await rpc.unary(method, request, options: options) }
                let response = try await rpc.unaryResponse(method, request, options: options)
                recorder.record(initial: response.initialMetadata, trailing: response.trailingMetadata)
                return response.message
            } catch where error.code == .unavailable && attempt < attempts {
                let delay = retry.backoff.delay(afterFailures: attempt)
                if let deadline, ContinuousClock.now + delay >= deadline { throw error }
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    throw RPCError(.cancelled, "the call was cancelled")
                }
                attempt += 1
            }
        }
    }

    /// A client stream (an upload) lives as long as its data takes to send: like a server
    /// stream, the default timeout does not bound it; its own options' does. Never retried: the
    /// stream was read once, and the write may have happened.
    func clientStreaming<Request, Response>(
        _ method: ClientStreamingMethod<Request, Response>,
        options: CallOptions,
        requests: (RequestWriter<Request>) async throws -> Void
    ) async throws -> Response {
        try await rpc.clientStreaming(method, options: resolved(options, over: streamDefaults), requests: requests)
    }

    /// A bidirectional stream lives as long as both sides want, as a server stream does. Never retried.
    func bidirectionalStreaming<Request, Response, Result: Sendable>(
        _ method: BidirectionalStreamingMethod<Request, Response>,
        options: CallOptions,
        requests: @escaping @Sendable (RequestWriter<Request>) async throws -> Void,
        responses: (ResponseStream<Response>) async throws -> Result
    ) async throws -> Result {
        try await rpc.bidirectionalStreaming(
            method, options: resolved(options, over: streamDefaults), requests: requests, responses: responses)
    }

    func serverStreaming<Request, Response>(
        _ method: ServerStreamingMethod<Request, Response>,
        _ request: Request,
        options: CallOptions
    ) async throws(RPCError) -> ResponseStream<Response> {
        try await openStreams.open { () async throws(RPCError) in
            try await rpc.serverStreaming(method, request, options: resolved(options, over: streamDefaults))
        }
    }
}
