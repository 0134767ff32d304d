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
        switch Self.contentLength(head.headers) {
        case .none:
            break
        case .conflicting:
            return .badRequest
        case .agreed(let length):
            if head.headers.contains(name: "transfer-encoding") { return .badRequest }
            guard let count = Int(length), count >= 0 else { return .badRequest }
            if count > maxMessageSize + 5 { return .payloadTooLarge }
        }
        if headers.overflowed { return .requestHeaderFieldsTooLarge }
        return nil
    }

    private enum ContentLength {
        case none
        /// Every `content-length` item (fields and comma-separated values) says this.
        case agreed(Substring)
        /// Two items differ.
        case conflicting
    }

    /// What the `content-length` fields say, read in place: this runs on every request.
    private static func contentLength(_ headers: HTTPHeaders) -> ContentLength {
        var agreed: Substring?
        for (name, value) in headers where name.utf8.count == 14 && name.lowercased() == "content-length" {
            var rest = value[...]
            while true {
                let comma = rest.firstIndex(of: ",") ?? rest.endIndex
                let item = rest[..<comma].trimmingHTTPWhitespace()
                if let agreed, agreed != item { return .conflicting }
                agreed = item
                guard comma < rest.endIndex else { break }
                rest = rest[rest.index(after: comma)...]
            }
        }
        return agreed.map { .agreed($0) } ?? .none
    }
}
