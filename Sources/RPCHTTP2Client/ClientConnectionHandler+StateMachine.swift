extension ClientConnectionHandler {
    /// The life of a client connection: open until GOAWAY is sent or received or the
    /// connection fails; then no call starts, the open ones finish, and it closes. The handler
    /// feeds it what happened and performs what it answers; it holds no I/O.
    struct StateMachine {
        enum State: Equatable {
            /// Calls may start.
            case open
            /// No call may start, for `reason`; the connection closes once no stream is open.
            case closing(reason: String)
        }

        private(set) var state = State.open
        /// Whether any byte came from the server yet.
        private(set) var heardFromServer = false

        /// Why no call may start, or `nil` while one may.
        var unavailableReason: String? {
            guard case .closing(let reason) = state else { return nil }
            return reason
        }

        /// Bytes came from the server. Returns whether they are its first: a cleartext
        /// connection then checks that they are not TLS.
        mutating func bytesReceived() -> Bool {
            defer { heardFromServer = true }
            return !heardFromServer
        }

        /// The server sent GOAWAY: no new call, whatever was said before.
        mutating func goAwayReceived(errorCode: UInt32, debugData: String) {
            let detail = debugData.isEmpty ? "" : ": \(debugData)"
            state = .closing(reason: "the server is going away (GOAWAY code \(errorCode)\(detail))")
        }

        /// The client closes the connection. Returns whether to send GOAWAY (the first time only).
        mutating func closeRequested() -> Bool {
            guard state == .open else { return false }
            state = .closing(reason: "the connection is closing")
            return true
        }

        /// The connection failed with `message`: it stays the reason calls are refused, unless
        /// one was given already.
        mutating func failed(_ message: String) {
            guard state == .open else { return }
            state = .closing(reason: message)
        }

        /// Whether to close the channel once `openStreams` are open and everything is written.
        func shouldClose(openStreams: Int) -> Bool { unavailableReason != nil && openStreams == 0 }
    }
}
