import NIOHTTP1

/// Where an HTTP/1.1 connection is in its request and response, one exchange at a time, and
/// what HTTP/1.1 decides about it: whether a request is refused before its call starts (the
/// input rules of contract §1.1 that the decoder leaves to us), whether its body still goes to
/// the call, and whether the connection stays open after the response. No I/O: tested without
/// sockets.
struct HTTP1Exchange {
    enum Request: Equatable {
        /// Waiting for a request head.
        case idle
        /// The head arrived; body parts go to the call.
        case receivingBody
        /// The request ended.
        case ended
    }

    private(set) var request = Request.idle
    private var keepAlive = true
    /// Set when the connection closes once the response is written (a refusal, a shutdown).
    private(set) var closesAfterResponse = false

    /// Whether request body parts go to the call.
    var takesBody: Bool { request == .receivingBody }

    mutating func requestBegan(keepAlive: Bool) {
        request = .receivingBody
        self.keepAlive = keepAlive
        if !keepAlive { closesAfterResponse = true }
    }

    mutating func requestEnded() {
        request = .ended
    }

    /// The connection closes once the response is written.
    mutating func closeAfterResponse() {
        closesAfterResponse = true
    }

    /// The response is written; returns whether the connection closes now (when asked to). A
    /// request whose body had not ended goes on being read, and its rest dropped, until its end.
    mutating func responseEnded() -> Bool {
        if request == .ended { request = .idle }
        return closesAfterResponse
    }

    /// The status that refuses a request before its call starts, if one does: framing that can
    /// smuggle a request (`content-length` with `transfer-encoding`, several different
    /// `content-length`s), a header list over its limit, a body announced over the message limit.
    func refusal(of head: HTTPRequestHead, headers: RequestHeaders, maxMessageSize: Int) -> HTTPResponseStatus? {
        let lengths = Set(head.headers["content-length"].flatMap { $0.split(separator: ",").map { $0.trimmingHTTPWhitespace() } })
        if !lengths.isEmpty, head.headers.contains(name: "transfer-encoding") { return .badRequest }
        if lengths.count > 1 { return .badRequest }
        if let length = lengths.first {
            guard let count = Int(length), count >= 0 else { return .badRequest }
            if count > maxMessageSize + 5 { return .payloadTooLarge }
        }
        if headers.overflowed { return .requestHeaderFieldsTooLarge }
        return nil
    }
}
