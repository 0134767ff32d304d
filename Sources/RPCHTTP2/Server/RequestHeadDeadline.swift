import NIOCore

/// Closes a connection that has not sent a complete request head within a bound of being
/// accepted, whatever it turns out to speak: one that sends nothing, part of a TLS handshake or
/// of the HTTP/2 preface, an HTTP/2 preface and no HEADERS frame, or an unfinished HTTP/1.1
/// head. So a connection that never speaks frees its connection slot by itself.
///
/// Made at accept and touched only on the connection's event loop. The front end put in place
/// once the protocol is known says how the connection closes (`close`, an HTTP/2 GOAWAY say);
/// until then it is closed outright. `met()` ends it at the first complete request head.
final class RequestHeadDeadline {
    /// How the connection closes when the time is over; the front end in place sets it.
    var close: () -> Void
    private var timer: Scheduled<Void>?

    /// Starts timing `channel` from now.
    ///
    /// - Parameter expired: called on the event loop when the time is over, before `close`
    ///   (to count and log it).
    init(bound: Duration, channel: any Channel, expired: @escaping () -> Void) {
        close = { channel.close(promise: nil) }
        timer = channel.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(bound)) { [self] in
            guard timer != nil else { return }
            timer = nil
            expired()
            close()
            close = {}
        }
        channel.closeFuture.assumeIsolated().whenComplete { [self] _ in met() }
    }

    /// The connection has a complete request head (or closed): it is no longer timed.
    func met() {
        timer?.cancel()
        timer = nil
        // The front end's closure holds the front end.
        close = {}
    }
}
