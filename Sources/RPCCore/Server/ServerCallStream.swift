/// One inbound call as a transport hands it to the router.
///
/// The transport owns framing, compression, flow control and the HTTP/2 stream; the router
/// sees whole messages. Every method is called from the call's own task.
package protocol ServerCallStream: Sendable {
    /// The parsed request headers.
    var head: RequestHead { get }

    /// The next request message, decompressed; `nil` after the client's last message.
    /// Throws the status the call must end with when the request stream is malformed.
    func receive() async throws(RPCError) -> [UInt8]?

    /// Sends one response message, preceded by the response headers (with
    /// `initialMetadata`) on the first call. Suspends while the peer is not reading.
    func send(_ message: [UInt8], initialMetadata: Metadata) async throws(RPCError)

    /// Ends the call: the last message, if any, then the trailers. With nothing sent before,
    /// an error becomes a trailers-only response. Calls after the first are ignored.
    func finish(lastMessage: [UInt8]?, initialMetadata: Metadata, trailers: ResponseTrailers)

    /// Hands the rest of the response to `source`, which the transport pulls from (see
    /// `ResponseSource`); the response headers carry `initialMetadata`. The call's task is then
    /// released: `waitUntilDone()` returns.
    func attach(_ source: any ResponseSource, initialMetadata: Metadata)

    /// Makes the transport pull the attached source again.
    func wakeSource()

    /// Returns once the call is over: after `finish`, or when the peer, the deadline or the
    /// connection aborted it (the transport has then already ended the stream). Also returns
    /// when the waiting task is cancelled.
    func waitUntilDone() async
}
