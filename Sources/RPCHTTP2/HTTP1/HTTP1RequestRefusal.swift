import NIOHTTP1
import RPCCallLayer
import RPCCore

/// The input rules of contract §1.1 that swift-nio's decoder leaves to us, checked on each
/// request head before its call starts.
enum HTTP1RequestRefusal {
    /// The status that refuses a request before its call starts, if one does: framing that can
    /// smuggle a request (`content-length` with `transfer-encoding`, several different
    /// `content-length`s), a header list over its limit, a body announced over the message limit.
    static func status(of head: HTTPRequestHead, headers: RequestHeaders, maxMessageSize: Int) -> HTTPResponseStatus? {
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

    /// The status a refused request's Connect error body carries: INVALID_ARGUMENT for a
    /// request that breaks the rules (400), RESOURCE_EXHAUSTED for one over a limit, with the
    /// HTTP status's reason phrase.
    static func trailers(for status: HTTPResponseStatus) -> ResponseTrailers {
        let code: StatusCode = status == .badRequest ? .invalidArgument : .resourceExhausted
        return ResponseTrailers(code: code, message: status.reasonPhrase)
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
