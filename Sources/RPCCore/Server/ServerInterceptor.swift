/// Runs around the handler of each call a `Router` serves: it may read the request metadata
/// and the caller, add response metadata, see how the handler ended, or refuse the call by
/// throwing without calling `next`.
///
/// Interceptors run in the router's order, the first outermost. `next` returns once the
/// handler did: a unary call's response is then on its way (metadata added after that is not
/// sent, and a throw changes nothing), and a subscription's source is attached. What an
/// interceptor throws before `next` ends the call with its status, as a handler's would. A
/// router with interceptors runs even the handlers written without `async` in a task.
///
/// ```swift
/// struct ServedBy: ServerInterceptor {
///     let replica: String
///
///     func intercept(_ context: ServerContext, next: () async throws -> Void) async throws {
///         context.addInitialMetadata("x-served-by", .string(replica))
///         try await next()
///     }
/// }
/// ```
public protocol ServerInterceptor: Sendable {
    /// Runs the call of `context`: `next` runs the interceptors after this one, then the handler.
    ///
    /// - Parameters:
    ///   - context: The call: its method, request metadata, caller and deadline, and the
    ///     response metadata it may add to.
    ///   - next: The rest of the chain; call it once to run the handler, or not at all to refuse the call.
    func intercept(_ context: ServerContext, next: () async throws -> Void) async throws
}

extension [any ServerInterceptor] {
    /// Runs `context`'s call through these interceptors, then `body`.
    func run(_ context: ServerContext, _ body: () async throws -> Void) async throws {
        try await run(context, from: startIndex, body)
    }

    private func run(_ context: ServerContext, from index: Int, _ body: () async throws -> Void) async throws {
        guard index < endIndex else { return try await body() }
        try await self[index].intercept(context) { try await run(context, from: index + 1, body) }
    }
}
