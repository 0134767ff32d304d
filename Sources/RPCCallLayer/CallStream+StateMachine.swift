import RPCCore

extension CallStream {
    /// The life of one request stream as two halves: the stream feeds it what nghttp2 and
    /// the call report and performs what it answers. It holds no buffer and no I/O, so every
    /// transition is tested without sockets.
    ///
    /// ```
    /// request:  receivingHeaders ──started──▶ receivingBody ──end, failure, drop──▶ ended
    ///                  └──────────answered before it started (refused, rejected)──────▲
    ///
    /// response: idle ──message──▶ streaming ──finish──▶ draining ──body sent──▶ ended
    ///             │                   │                                          ▲
    ///             └─finish (no body): trailers-only; abandon, close; reset───────┘
    /// ```
    ///
    /// The call's end (metrics and access log) is recorded exactly when the response leaves
    /// `idle` or `streaming`: the actions that say so. A draining response carries the
    /// trailers that follow its body (HTTP/2 gRPC), and `bodySent` hands them over once.
    struct StateMachine {
        enum Request: Equatable {
            /// Its header block is arriving: fields go to the request head, not to trailers.
            case receivingHeaders
            /// The call started: body bytes go to its deframer.
            case receivingBody
            /// The call's reader was told the request ended (cleanly, with an error, or because
            /// the call is gone), or the call was answered before it started. Later bytes are
            /// credited and dropped.
            case ended
        }

        enum Response: Equatable {
            /// Nothing submitted.
            case idle
            /// The response headers are submitted; messages follow.
            case streaming
            /// The call finished: once the queued body is sent, `trailers` go, or (none) the
            /// body's end ends the response.
            case draining(trailers: ResponseTrailers?)
            /// Trailers, a trailers-only answer or RST_STREAM were submitted, or the stream
            /// closed: nothing more is sent.
            case ended
        }

        private(set) var request = Request.receivingHeaders
        private(set) var response = Response.idle
        /// Whether the client ended its half of the stream (END_STREAM).
        private(set) var clientEnded = false

        /// Whether the call started or was answered: a header block after that is trailers.
        var isStarted: Bool {
            if case .receivingHeaders = request { return false }
            return true
        }

        /// Whether the call finished its response (or the stream ended it): it sends no more messages.
        var isFinished: Bool {
            switch response {
            case .idle, .streaming: return false
            case .draining, .ended: return true
            }
        }

        /// Whether the response headers were submitted (alone or as a trailers-only answer).
        var responseStarted: Bool {
            if case .idle = response { return false }
            return true
        }

        /// Whether request body bytes go to the call's deframer.
        var takesRequestBody: Bool {
            guard case .receivingBody = request else { return false }
            return !isFinished
        }

        // MARK: Request events

        /// The request head was accepted and its call started.
        mutating func callStarted() {
            request = .receivingBody
        }

        /// The call was answered before it started (refused or rejected): trailers-only, or
        /// `withBody` (a protocol whose errors are a body), the body then drains. Its end is
        /// recorded now.
        mutating func answeredBeforeStart(withBody: Bool = false) {
            request = .ended
            response = withBody ? .draining(trailers: nil) : .ended
        }

        /// The request ended, cleanly or not; returns whether its reader still has to be told.
        mutating func requestEnded() -> Bool {
            guard case .receivingBody = request else { return false }
            request = .ended
            return true
        }

        /// The client sent END_STREAM; returns whether the deframer must check that the body
        /// ended on a message boundary (and the reader be told it ended).
        mutating func clientEndedStream() -> Bool {
            clientEnded = true
            guard case .receivingBody = request else { return false }
            return true
        }

        // MARK: Response events

        /// A response message is queued; returns whether the response headers go first.
        /// (The call sends only while not finished.)
        mutating func messageQueued() -> Bool {
            guard case .idle = response else { return false }
            response = .streaming
            return true
        }

        enum FinishAction: Equatable {
            /// The response had already ended: nothing to do.
            case none
            /// Submit the status as the only header block, with END_STREAM (trailers-only).
            /// The call's end is recorded.
            case trailersOnly
            /// Queue the last message if there is one (after the response headers when
            /// `submitHeaders`); the trailers follow once the body is sent. The call's end is
            /// recorded.
            case drain(submitHeaders: Bool)
        }

        /// The call finished, `withMessage` (a last one) or not.
        mutating func finish(withMessage: Bool) -> FinishAction {
            switch response {
            case .draining, .ended:
                return .none
            case .idle where !withMessage:
                response = .ended
                return .trailersOnly
            case .idle, .streaming:
                let submitHeaders = !responseStarted
                response = .draining(trailers: nil)
                return .drain(submitHeaders: submitHeaders)
            }
        }

        /// The finished call's status goes in `trailers` after its body (HTTP/2 gRPC), not in the body.
        mutating func trailersFollowBody(_ trailers: ResponseTrailers) {
            guard case .draining = response else { return }
            response = .draining(trailers: trailers)
        }

        enum BodySentAction: Equatable {
            /// The response goes on (or had ended).
            case none
            /// The body's end ends the response.
            case ended
            /// Submit these trailers: they end the response.
            case sendTrailers(ResponseTrailers)
        }

        /// The queued body went to the front end; once a finished call's has, its response ends.
        mutating func bodySent() -> BodySentAction {
            guard case .draining = response else { return .none }
            // Moved out, not copied: a copy would retain each of the trailers' fields.
            var finished = Response.ended
            swap(&finished, &response)
            guard case .draining(let trailers?) = finished else { return .ended }
            return .sendTrailers(trailers)
        }

        enum AbandonAction: Equatable {
            /// Nothing was sent: answer trailers-only (then as `finish`). The call's end is recorded.
            case trailersOnly
            /// Submit RST_STREAM; `recordsEnd`: whether the call's end is recorded now (its
            /// response had not finished).
            case reset(recordsEnd: Bool)
        }

        /// The connection ends the call before its time (a budget, a timeout); its request
        /// ends with it.
        mutating func abandon() -> AbandonAction {
            let action: AbandonAction =
                switch response {
                case .idle: .trailersOnly
                case .streaming: .reset(recordsEnd: true)
                case .draining, .ended: .reset(recordsEnd: false)
                }
            response = .ended
            return action
        }

        /// The stream closed (reset, ended, connection lost); returns whether the call's end is
        /// recorded now, as cancelled.
        mutating func streamClosed() -> Bool {
            let recordsEnd = !isFinished
            response = .ended
            return recordsEnd
        }
    }
}
