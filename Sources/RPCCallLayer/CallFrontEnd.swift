import RPCCore

/// The front end under a connection's calls (`ConnectionCalls`): what only it knows how to do
/// with a call's response, and with the connection. The HTTP/2 handler implements it with
/// nghttp2's session, the HTTP/1.1 handler with NIOHTTP1, and `InProcessConnection` with the
/// client's own call; the calls never see a frame, a socket or a session. Called on the
/// connection's loop.
package protocol CallFrontEnd: AnyObject {
    /// Whether the connection still reads, writes and serves calls (it is not closing).
    var isOpen: Bool { get }
    /// Sends the head of `stream`'s response; `hasBody`: whether body bytes or trailers follow
    /// (otherwise the head ends the response, as a trailers-only answer does).
    func sendResponseHead(_ head: ResponseHead, of stream: CallStream, hasBody: Bool)
    /// Response bytes were queued for `stream` after a read found none (`ResponseBodyRead.deferred`).
    func resumeResponseBody(of stream: CallStream)
    /// Sends the trailers that end `stream`'s response after its body (gRPC over HTTP/2).
    func sendTrailers(_ trailers: ResponseTrailers, of stream: CallStream)
    /// Ends `stream` at once, what was not sent of its response dropped.
    func reset(_ stream: CallStream, _ reason: StreamReset)
    /// Gives the peer credit for `count` more request bytes of `stream` (flow control).
    func creditRequestBytes(_ count: Int, of stream: CallStream)
    /// Sends what the calls queued, soon: after the current read, or on the next turn of the loop.
    func scheduleFlush()
    /// Sends what the calls queued, now.
    func flush()
    /// Closes the connection for a peer's abuse (a request head that never ended).
    func closeAbusive(_ reason: String)
}

/// The head of a call's response.
package enum ResponseHead {
    /// `200` with the content type and `grpc-accept-encoding` alone: what most calls answer,
    /// which a front end may keep prepared.
    case plain(ContentType)
    /// The fields, `:status` first.
    case fields([(name: String, value: String)])
}

/// Why a front end ends a stream at once (HTTP/2: RST_STREAM with the matching code).
package enum StreamReset {
    /// The call was refused before it started (no task could run it).
    case refused
    /// The server gave up on it: a timeout, a stalled reader.
    case cancel
    /// It held too much of the server's memory.
    case enhanceYourCalm
    /// Answered in full; the client is told to stop sending, without error.
    case noError
}

/// What a front end's read of a response body got.
package enum ResponseBodyRead {
    /// `count` bytes; more may follow.
    case bytes(count: Int)
    /// `count` bytes, the body's last. The stream then ends, unless `trailersFollow`: the
    /// trailers were sent (`CallFrontEnd.sendTrailers`) and end it.
    case last(count: Int, trailersFollow: Bool)
    /// Nothing now; `CallFrontEnd.resumeResponseBody` says when there is.
    case deferred
}
