extension ServerConnectionHandler {
    /// The life of a server connection, from accept to close: the handler feeds it what
    /// happened and performs what it answers. It holds no I/O, so every transition is tested
    /// without sockets.
    ///
    /// ```
    /// waiting ──active──▶ serving ──shutdown──▶ draining ──PING ack──▶ draining (final GOAWAY sent)
    ///    │                   │                     │
    ///    │ refused           └───────┬─────────────┘
    ///    ▼                           ▼
    /// refused ──answered, read──▶ closing ◀── abuse, protocol error, keepalive or grace timeout,
    ///                                          session finished, channel inactive
    /// ```
    struct StateMachine {
        enum State: Equatable {
            /// Accepted, not active yet; a graceful shutdown asked for now starts once it is.
            case waiting(drainRequested: Bool)
            /// Serving calls.
            case serving
            /// The GOAWAY notice and a PING are out; the final GOAWAY follows the PING's ack.
            case draining(finalGoAwaySent: Bool)
            /// Refused by a connection limit: streams are answered with the refusal, no call runs.
            case refused(answered: Bool)
            /// Closing or closed: nothing is read, written or started any more.
            case closing
        }

        private(set) var state: State
        private let isRefused: Bool

        /// - Parameter refused: the connection was accepted over a connection limit.
        init(refused: Bool) {
            self.isRefused = refused
            self.state = .waiting(drainRequested: false)
        }

        /// Whether reads, writes, timers and calls are still handled. (A pattern, not `!=`: it
        /// is asked on every read, write and call event.)
        var isOpen: Bool {
            if case .closing = state { return false }
            return true
        }

        enum ActiveAction: Equatable {
            /// Already active.
            case none
            /// Close the connection once `refusedConnectionTimeout` is over.
            case armRefusalTimer
            /// Start keepalive and the idle timer.
            case startTimers
            /// Start keepalive and the idle timer, then drain (a shutdown came before).
            case startTimersAndDrain
        }

        /// The channel is active and the session is made.
        mutating func channelActive() -> ActiveAction {
            guard case .waiting(let drainRequested) = state else { return .none }
            if isRefused {
                state = .refused(answered: false)
                return .armRefusalTimer
            }
            if drainRequested {
                state = .draining(finalGoAwaySent: false)
                return .startTimersAndDrain
            }
            state = .serving
            return .startTimers
        }

        /// A graceful shutdown was asked for (server shutdown, idle timeout). Returns whether to
        /// start draining now: send the GOAWAY notice and a PING, and arm the grace timer.
        mutating func gracefulShutdownRequested() -> Bool {
            switch state {
            case .waiting(drainRequested: false) where !isRefused:
                state = .waiting(drainRequested: true)
                return false
            case .serving:
                state = .draining(finalGoAwaySent: false)
                return true
            case .waiting, .draining, .refused, .closing:
                return false
            }
        }

        /// A PING was acknowledged. Returns whether to send the final GOAWAY, naming the last
        /// stream the server processed: the notice's round trip is over, so no stream the
        /// client opened before it is still on its way.
        mutating func pingAcknowledged() -> Bool {
            guard case .draining(finalGoAwaySent: false) = state else { return false }
            state = .draining(finalGoAwaySent: true)
            return true
        }

        /// A stream of a refused connection was answered with the refusal.
        mutating func refusalAnswered() {
            if case .refused = state { state = .refused(answered: true) }
        }

        enum ReadCompleteAction: Equatable {
            case none
            /// Write what is queued.
            case flush
            /// Send the refusal's GOAWAY, then close our side once it is written.
            case endRefusal
        }

        /// The channel's read is over.
        mutating func readComplete() -> ReadCompleteAction {
            switch state {
            case .closing:
                return .none
            case .refused(answered: true):
                state = .closing
                return .endRefusal
            case .waiting, .serving, .draining, .refused(answered: false):
                return .flush
            }
        }

        enum RefusalTimerAction: Equatable {
            /// Close now (the refusal was sent already).
            case close
            /// Send the refusal's GOAWAY, then close once it is written.
            case goAwayAndClose
        }

        /// `refusedConnectionTimeout` is over.
        mutating func refusalTimerFired() -> RefusalTimerAction {
            if !isOpen { return .close }
            state = .closing
            return .goAwayAndClose
        }

        /// The connection is to close (an abusive peer, a protocol error, a keepalive or grace
        /// timeout). Returns whether it was open: only then is what nghttp2 queued sent before
        /// closing.
        mutating func close() -> Bool {
            guard isOpen else { return false }
            state = .closing
            return true
        }

        /// nghttp2 has nothing more to read or write. Returns whether to close the channel now.
        mutating func sessionFinished() -> Bool { close() }

        /// The channel is inactive: every stream and timer goes.
        mutating func channelInactive() { state = .closing }
    }
}
