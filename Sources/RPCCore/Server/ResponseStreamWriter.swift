/// Sends the messages of a server-streaming response.
public struct ResponseStreamWriter<Response: Encodable & Sendable>: Sendable {
    let stream: any ServerCallStream
    let context: ServerContext

    /// Sends one message. Suspends while the client is not reading, so a slow client
    /// holds the handler back instead of growing server memory.
    public func write(_ message: Response) async throws(RPCError) {
        let bytes = try stream.head.contentType.codec.encode(message)
        try await stream.send(bytes, initialMetadata: context.initialMetadata)
    }

    /// Sends one message encoded already with the call's codec (`context.contentType.codec`).
    package func write(encoded bytes: [UInt8]) async throws(RPCError) {
        try await stream.send(bytes, initialMetadata: context.initialMetadata)
    }
}
