/// Runs around each call an `RPCClient` makes: it may read and change the call's options (its
/// metadata, token and deadline), see how the call ended, refuse it, or call `next` again to
/// retry it.
///
/// Interceptors run in the order given, the first outermost: the first sees the call before
/// the others and its result after them. `next` returns (or throws) when the call has ended,
/// for every kind of call and on every transport: for a unary or client-streaming call once
/// the response arrived; for a server or bidirectional stream once the stream ended, while
/// the caller reads it (`next` throws its status, CANCELLED when the caller cancelled or
/// released it; a stream that could not open throws as it would have ended). The caller's read
/// that finds the end returns once the interceptors have seen it. A stream already handed to
/// its caller is not opened again: calling `next` again returns or throws its end once more.
/// Each attempt of a client that retries reads goes through the whole chain.
///
/// ```swift
/// struct RequestID: ClientInterceptor {
///     func intercept<Output: Sendable>(
///         _ call: ClientCallContext,
///         next: (ClientCallContext) async throws(RPCError) -> Output
///     ) async throws(RPCError) -> Output {
///         var call = call
///         call.options.metadata.add("x-request-id", UUID().uuidString)
///         return try await next(call)
///     }
/// }
/// ```
public protocol ClientInterceptor: Sendable {
    /// Runs `call`: `next` runs the interceptors after this one, then the call itself.
    ///
    /// - Parameters:
    ///   - call: The method and the options it is sent with.
    ///   - next: The rest of the chain; call it once to make the call, again to retry it, or not
    ///     at all to refuse it (by throwing).
    func intercept<Output: Sendable>(
        _ call: ClientCallContext,
        next: (ClientCallContext) async throws(RPCError) -> Output
    ) async throws(RPCError) -> Output
}

/// A call as a ``ClientInterceptor`` sees it.
public struct ClientCallContext: Sendable {
    /// The method called.
    public let method: MethodDescriptor
    /// The options it is sent with: metadata, token, deadline and compression. An interceptor
    /// changes them for the interceptors after it and the call.
    public var options: CallOptions

    /// The context of a call of `method` with `options`.
    public init(method: MethodDescriptor, options: CallOptions) {
        self.method = method
        self.options = options
    }
}

extension [any ClientInterceptor] {
    /// Runs `call` through these interceptors, then `body`.
    package func run<Output: Sendable>(
        _ call: ClientCallContext,
        _ body: (ClientCallContext) async throws(RPCError) -> Output
    ) async throws(RPCError) -> Output {
        try await run(call, from: startIndex, body)
    }

    private func run<Output: Sendable>(
        _ call: ClientCallContext,
        from index: Int,
        _ body: (ClientCallContext) async throws(RPCError) -> Output
    ) async throws(RPCError) -> Output {
        guard index < endIndex else { return try await body(call) }
        return try await self[index].intercept(call) { (call) async throws(RPCError) -> Output in
            try await run(call, from: index + 1, body)
        }
    }
}
