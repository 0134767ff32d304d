import CatalogAPI
import RPCCore

/// The answers of one `Health/Watch` call, from ``HealthClient/watch(service:options:)``: the
/// serving status now, then each change.
///
/// Iteration ends after the last answer of a call that ended OK and throws `RPCError` for any
/// other end, e.g. when the server goes away, or CANCELLED when the client is closed.
/// Releasing the sequence, or `cancel()`, ends the call.
public struct HealthWatch: AsyncSequence, Sendable {
    /// Each element is a serving status.
    public typealias Element = HealthCheckResponse
    /// Iteration throws `RPCError`, declared untyped.
    public typealias Failure = any Error

    private let responses: ResponseStream<HealthCheckResponse>

    init(responses: ResponseStream<HealthCheckResponse>) { self.responses = responses }

    /// Abandons the call.
    public func cancel() { responses.cancel() }

    /// An iterator over the responses.
    public func makeAsyncIterator() -> Iterator { Iterator(responses: responses.makeAsyncIterator()) }

    /// Reads the answers one by one.
    public struct Iterator: AsyncIteratorProtocol {
        private var responses: ResponseStream<HealthCheckResponse>.Iterator

        init(responses: ResponseStream<HealthCheckResponse>.Iterator) { self.responses = responses }

        /// Waits for the next answer; `nil` after the last one of a call that ended OK. Throws
        /// `RPCError`.
        public mutating func next() async throws -> HealthCheckResponse? {
            try await responses.next(isolation: nil)
        }

        /// Waits for the next answer on the caller's actor, as ``next()`` does.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> HealthCheckResponse? {
            try await responses.next(isolation: actor)
        }
    }
}
