import RPCCore

/// The response messages of a raw call, as JSON bytes, in order; see ``RawCallsClient``.
///
/// Iteration ends after the last message of a call that ended OK and throws `RPCError` for
/// any other end. Releasing the stream before its end cancels the call.
public final class RawResponseStream: AsyncSequence, Sendable {
    /// Each element is a response message, as JSON bytes.
    public typealias Element = [UInt8]
    /// Iteration throws `RPCError`, declared untyped.
    public typealias Failure = any Error

    private let call: any ClientCallStream
    /// Whether the messages come as CBOR, to be handed on as JSON.
    private let asJSONFromCBOR: Bool

    init(call: any ClientCallStream, asJSONFromCBOR: Bool = false) {
        self.call = call
        self.asJSONFromCBOR = asJSONFromCBOR
    }

    deinit { call.cancel() }

    /// Abandons the call.
    public func cancel() { call.cancel() }

    /// An iterator over the responses.
    public func makeAsyncIterator() -> Iterator { Iterator(stream: self) }

    /// Reads response messages one by one.
    public struct Iterator: AsyncIteratorProtocol {
        let stream: RawResponseStream

        /// Waits for the next response message; `nil` after the last one of a call that ended
        /// OK. Throws `RPCError`.
        public mutating func next() async throws -> [UInt8]? {
            try await next(isolation: nil)
        }

        /// Waits for the next response message on the caller's actor, as ``next()`` does.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> [UInt8]? {
            let call = stream.call
            do {
                let message = try await withTaskCancellationHandler {
                    try await call.receive()
                } onCancel: {
                    call.cancel()
                }
                guard let message, stream.asJSONFromCBOR else { return message }
                return try JSONCBORBridge.json(fromCBOR: message)
            } catch let error as RPCError {
                throw error
            } catch {
                throw RPCError(mapping: error)
            }
        }
    }
}
