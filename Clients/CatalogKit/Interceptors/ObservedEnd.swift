import RPCCore

/// Runs `next(call)` for an interceptor that only watches, and hands `ended` how the call
/// ended (`nil` when it succeeded, else its error) and how long it took.
func observingEnd<Output: Sendable>(
    _ call: ClientCallContext,
    next: (ClientCallContext) async throws(RPCError) -> Output,
    ended: (RPCError?, Duration) -> Void
) async throws(RPCError) -> Output {
    let start = ContinuousClock.now
    do {
        let output = try await next(call)
        ended(nil, .now - start)
        return output
    } catch {
        ended(error, .now - start)
        throw error
    }
}
