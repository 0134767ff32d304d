import NIOHTTP1

/// Where an HTTP/1.1 connection is, one exchange at a time, and what HTTP/1.1 decides about
/// it: whether a request's body still goes to its call, when and how the response head is
/// written (`content-length` for a body complete at once, `connection: close`), whether the
/// connection stays open after the response, and what a parse error or a shutdown does. The
/// states carry what they need (the call, the head waiting for its body, whether the
/// connection closes after the response); the handler feeds events and performs the actions
/// returned. No I/O: tested without sockets, with any class standing in for the call.
///
/// ```
///             head                      response written
/// idle ───────────────▶ serving ─────────────────────────▶ idle (keep-alive, request ended)
///   ▲                      │    └───────────────────────▶ discardingBody ──request end──▶ idle
///   │                      │                              (request not ended: rest dropped)
///   └──────────────────────┴─ close, shutdown when idle, parse error ─▶ closing
/// ```
struct HTTP1Exchange<Call: AnyObject> {
    /// One request and its response.
    struct Exchange {
        let call: Call
        /// Whether body parts go to the call (not a GET's or a HEAD's).
        let takesBody: Bool
        /// Whether the request's `end` part arrived.
        var requestEnded = false
        var response = Response.waiting
        /// Whether the connection closes once the response is written: the request asked for
        /// it, or a refusal or a shutdown did.
        var closesAfterResponse: Bool
    }

    /// Where the response of an exchange is.
    enum Response {
        /// The call has not answered.
        case waiting
        /// The call answered with a body to come: the head is written with its first bytes
        /// (so that a body complete at once gets a `content-length`).
        case headReady(HTTPResponseHead)
        /// The head is written; body parts follow.
        case headWritten
    }

    enum State {
        /// No request: waiting for a head.
        case idle
        /// A request is being served.
        case serving(Exchange)
        /// The response was written before its request ended: the rest of the request is
        /// read and dropped until its end.
        case discardingBody
        /// Closing or closed: nothing is read or written any more.
        case closing
    }

    private(set) var state = State.idle

    /// The call of the request being served.
    var call: Call? {
        guard case .serving(let exchange) = state else { return nil }
        return exchange.call
    }

    var isClosing: Bool {
        if case .closing = state { return true }
        return false
    }

    /// Whether the connection serves no request (its idle and head timeouts apply).
    var isBetweenRequests: Bool {
        switch state {
        case .idle, .discardingBody: true
        case .serving, .closing: false
        }
    }

    /// The call being served once it answered (its head is ready or written): only then is
    /// there anything to write.
    var respondingCall: Call? {
        guard case .serving(let exchange) = state else { return nil }
        if case .waiting = exchange.response { return nil }
        return exchange.call
    }

    /// Whether a response head waits to be written.
    var headIsReady: Bool {
        guard case .serving(let exchange) = state, case .headReady = exchange.response else { return false }
        return true
    }

    // MARK: Request events

    /// A request head arrived with its call; returns whether it is served (not while closing).
    /// The pipelining handler before this one passes one request at a time. `takesBody`:
    /// whether its body parts go to the call (a GET's message is in its query).
    mutating func requestBegan(_ call: Call, keepAlive: Bool, takesBody: Bool) -> Bool {
        switch state {
        case .idle, .discardingBody:
            state = .serving(Exchange(call: call, takesBody: takesBody, closesAfterResponse: !keepAlive))
            return true
        case .serving, .closing:
            return false
        }
    }

    /// A body part arrived: the call it goes to, if its request is still being read.
    func bodyReceiver() -> Call? {
        guard case .serving(let exchange) = state, exchange.takesBody, !exchange.requestEnded else { return nil }
        return exchange.call
    }

    /// The request ended; returns the call to tell, if it is still being served.
    mutating func requestEnded() -> Call? {
        switch state {
        case .serving(var exchange):
            guard !exchange.requestEnded else { return nil }
            exchange.requestEnded = true
            state = .serving(exchange)
            return exchange.call
        case .discardingBody:
            state = .idle
            return nil
        case .idle, .closing:
            return nil
        }
    }

    /// The connection closes once the current response is written (a refusal).
    mutating func closeAfterResponse() {
        guard case .serving(var exchange) = state else { return }
        exchange.closesAfterResponse = true
        state = .serving(exchange)
    }

    // MARK: Response events

    enum HeadAction {
        /// Not the current call's, or the connection is closing: nothing to do.
        case none
        /// Held until the first body bytes (`takeHead`).
        case held
        /// Write this head, then end the response (`responseWritten`).
        case writeAndEnd(HTTPResponseHead)
    }

    /// `call` answered with `head`; `hasBody` says whether a body follows.
    mutating func responseHead(_ head: HTTPResponseHead, of call: Call, hasBody: Bool) -> HeadAction {
        guard case .serving(var exchange) = state, exchange.call === call, case .waiting = exchange.response else { return .none }
        guard hasBody else {
            exchange.response = .headWritten
            state = .serving(exchange)
            return .writeAndEnd(Self.framed(head, contentLength: 0, closes: exchange.closesAfterResponse))
        }
        exchange.response = .headReady(head)
        state = .serving(exchange)
        return .held
    }

    /// The head to write before body bytes, once: with `content-length` when `contentLength`
    /// is the whole body's, else (a stream) chunked by the encoder.
    mutating func takeHead(contentLength: Int?) -> HTTPResponseHead? {
        guard case .serving(var exchange) = state, case .headReady(let head) = exchange.response else { return nil }
        exchange.response = .headWritten
        state = .serving(exchange)
        return Self.framed(head, contentLength: contentLength, closes: exchange.closesAfterResponse)
    }

    enum EndAction {
        /// Not serving: nothing to do.
        case none
        /// Write the end, close the call's stream, and wait for the next request.
        case keepOpen(Call)
        /// Write the end, close the call's stream, then the connection once the end is written.
        case close(Call)
    }

    /// The response's last bytes are out: the next request may come, or the connection closes.
    mutating func responseWritten() -> EndAction {
        guard case .serving(let exchange) = state else { return .none }
        if exchange.closesAfterResponse {
            state = .closing
            return .close(exchange.call)
        }
        state = exchange.requestEnded ? .idle : .discardingBody
        return .keepOpen(exchange.call)
    }

    /// `call` reset its stream (it ended before its response, or the connection cut it);
    /// returns whether the connection must close: the response cannot be completed. A clean
    /// end with no body pending needs nothing.
    func mustCloseOnReset(of call: Call, cleanly: Bool) -> Bool {
        guard case .serving(let exchange) = state, exchange.call === call else { return false }
        guard cleanly else { return true }
        if case .headReady = exchange.response { return true }
        return false
    }

    // MARK: Connection events

    enum ShutdownAction {
        case none
        /// Nothing in flight: close now.
        case closeNow
        /// The request in flight finishes within the grace period, then the connection closes.
        case finishThenClose
    }

    /// A graceful shutdown was asked for.
    mutating func gracefulShutdown() -> ShutdownAction {
        switch state {
        case .idle, .discardingBody:
            state = .closing
            return .closeNow
        case .serving(var exchange):
            exchange.closesAfterResponse = true
            state = .serving(exchange)
            return .finishThenClose
        case .closing:
            return .none
        }
    }

    enum ParseFailureAction {
        /// Closing already.
        case none
        /// A response is under way: close.
        case close
        /// Answer with an error, then close.
        case answerAndClose
    }

    /// A request did not parse: the connection closes, answering first when no response is
    /// under way.
    mutating func parseFailed() -> ParseFailureAction {
        let action: ParseFailureAction
        switch state {
        case .idle, .discardingBody:
            action = .answerAndClose
        case .serving(let exchange):
            if case .waiting = exchange.response { action = .answerAndClose } else { action = .close }
        case .closing:
            return .none
        }
        state = .closing
        return action
    }

    /// The connection closes (a timeout, an abusive peer, the channel went inactive); returns
    /// whether it was open.
    mutating func close() -> Bool {
        if case .closing = state { return false }
        state = .closing
        return true
    }

    /// `head` with the fields that frame it, which are the front end's alone: the head never
    /// holds them (`responseHead` drops a handler's), so they are added, not replaced (a
    /// replace would copy the fields once more).
    private static func framed(_ head: consuming HTTPResponseHead, contentLength: Int?, closes: Bool) -> HTTPResponseHead {
        if let contentLength { head.headers.add(name: "content-length", value: String(contentLength)) }
        if closes { head.headers.add(name: "connection", value: "close") }
        return head
    }
}
