import NIOCore

/// Keepalive PINGs of one connection, on its event loop: every `interval`, a PING unless
/// something arrived since the last check; `onTimeout` when a PING goes unanswered for
/// `timeout`, so that a silently dead peer is noticed instead of waited for.
package final class KeepalivePinger {
    private let interval: Duration
    private let timeout: Duration
    private let eventLoop: any EventLoop
    private let sendPing: () -> Void
    private let onTimeout: () -> Void
    private var receivedSinceCheck = false
    private var tick: Scheduled<Void>?
    private var deadline: Scheduled<Void>?

    /// `nil` when `interval` is `nil` (keepalive off). The closures run on the event loop;
    /// capture the connection weakly.
    package init?(
        interval: Duration?, timeout: Duration, eventLoop: any EventLoop,
        sendPing: @escaping () -> Void, onTimeout: @escaping () -> Void
    ) {
        guard let interval else { return nil }
        self.interval = interval
        self.timeout = timeout
        self.eventLoop = eventLoop
        self.sendPing = sendPing
        self.onTimeout = onTimeout
    }

    /// Starts the periodic checks (again: the previous schedule is replaced).
    package func start() {
        tick?.cancel()
        tick = eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(interval)) { [weak self] in
            self?.check()
            self?.start()
        }
    }

    /// Bytes arrived from the peer: it is alive.
    package func received() {
        receivedSinceCheck = true
    }

    /// The peer answered a PING.
    package func acknowledged() {
        deadline?.cancel()
        deadline = nil
    }

    package func stop() {
        tick?.cancel()
        deadline?.cancel()
    }

    private func check() {
        defer { receivedSinceCheck = false }
        guard !receivedSinceCheck, deadline == nil else { return }
        sendPing()
        deadline = eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(timeout)) { [weak self] in
            self?.onTimeout()
        }
    }
}
