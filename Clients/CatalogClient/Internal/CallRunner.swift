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

    /// `options` of a server stream laid over the client's defaults, their timeout left out.
    func streamOptions(_ options: CallOptions) -> CallOptions {
        var defaults = self.defaults
        defaults.timeLimit = .inherited
        return options.merged(over: defaults)
    }

    func unary<Request, Response>(
        _ method: UnaryMethod<Request, Response>,
        _ request: Request,
        options: CallOptions,
        _ idempotency: Idempotency
    ) async throws(RPCError) -> Response {
        var options = options.merged(over: defaults)
        let deadline = options.timeout.map { ContinuousClock.now + $0 }
        let attempts = idempotency == .read ? retry.maxAttempts : 1
        var attempt = 1
        while true {
            if let deadline {
                let remaining = deadline - .now
                guard remaining > .zero else { throw RPCError(.deadlineExceeded, "the deadline passed before attempt \(attempt)") }
                options.timeout = remaining
            }
            do throws(RPCError) {
                return try await rpc.unary(method, request, options: options)
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

    func serverStreaming<Request, Response>(
        _ method: ServerStreamingMethod<Request, Response>,
        _ request: Request,
        options: CallOptions
    ) async throws(RPCError) -> ResponseStream<Response> {
        try await rpc.serverStreaming(method, request, options: streamOptions(options))
    }
}
