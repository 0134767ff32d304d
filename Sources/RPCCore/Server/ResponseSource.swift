/// What a `ResponseSource` has for the transport when asked.
public enum ResponsePull: Sendable {
    /// One encoded response message.
    case message([UInt8])
    /// Nothing now; the source calls `ResponseWaker.wake()` when it has more.
    case idle
    /// The call ends with these trailers.
    case end(ResponseTrailers)
}

/// A server-streaming response that the transport pulls from instead of a task pushing into
/// it, so that a long-lived, mostly idle stream (a subscription) holds no task and no
/// buffer beyond what the source keeps.
///
/// The transport calls `next()` on its own thread, one call at a time per stream, whenever
/// the stream can take more (after `attach`, after each `ResponseWaker.wake()`, and when the
/// peer has read what was queued), and stops calling it while the peer is not reading: what
/// the source keeps meanwhile is its own policy (latest value, bounded queue, …).
public protocol ResponseSource: AnyObject, Sendable {
    /// The next thing to send.
    func next() -> ResponsePull
    /// The stream is over (ended, reset by the client, deadline, connection lost); called
    /// once, after which `next()` is not called again.
    func streamClosed()
}

/// Tells the transport that a pulled stream's source has something new. Any thread, any time;
/// a wake before the source is attached is harmless (the transport pulls once on attach).
public struct ResponseWaker: Sendable {
    private let wakeSource: @Sendable () -> Void

    /// A waker that calls `wakeSource`: for transports, which know how to pull their stream.
    package init(_ wakeSource: @escaping @Sendable () -> Void) {
        self.wakeSource = wakeSource
    }

    init(stream: any ServerCallStream) {
        self.init { stream.wakeSource() }
    }

    /// Makes the transport pull the source again.
    public func wake() {
        wakeSource()
    }
}
