import Logging
import NIOCore
import RPCHTTP2Core
import RPCCore

/// Keepalive, the idle timeout, graceful shutdown and the end of refused connections.
extension ServerConnectionHandler {
    func startTimers(_ context: ChannelHandlerContext) {
        keepalive = KeepalivePinger(
            interval: configuration.keepaliveInterval, timeout: configuration.keepaliveTimeout, eventLoop: context.eventLoop,
            sendPing: { [self] in
                guard let session, state.isOpen else { return }
                session.submitPing()
                flush()
            },
            onTimeout: { [self] in
                logger.info("closing connection: keepalive PING unanswered")
                session?.terminate(errorCode: HTTP2ErrorCode.noError)
                closeAfterFlush()
            })
        keepalive?.start()
        if let timeout = configuration.idleTimeout {
            // Strongly, like the other callbacks, and let go in `releaseCallbacks`: a weak
            // reference would put every retain of the handler on the slow path.
            idleTimeout = LazyTimeout(timeout, on: context.eventLoop) { [self] in
                logger.debug("closing idle connection")
                metrics.closed(.idleTimeout)
                beginGracefulShutdown()
            }
        }
        armIdleTimer()
    }

    /// Notes that the connection has no stream from now on (see `LazyTimeout`).
    func armIdleTimer() {
        guard calls.hasNoStreams else { return }
        idleTimeout?.restart()
    }

    /// GOAWAY in two steps (notice, then the last stream after a PING round trip); in-flight
    /// calls finish, and the connection closes when they have or the grace period ends (then
    /// the calls still running are answered UNAVAILABLE and their handlers cancelled).
    func beginGracefulShutdown() {
        // A connection accepted just before shutdown began is not active yet: start() drains it.
        if state.gracefulShutdownRequested() { startDraining() }
    }

    func startDraining() {
        guard let session, let context else { return }
        session.submitShutdownNotice()
        session.submitPing()
        graceTimer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(configuration.shutdownGracePeriod)) { [self] in
            let cut = calls.cutRunningCalls()
            logger.info("closing connection: shutdown grace period over", metadata: ["calls_cut": "\(cut)"])
            // Not `terminate`: nghttp2 sends nothing after a terminating GOAWAY, which goes first.
            if let session = self.session {
                session.submitGoAway(lastStreamID: session.lastProcessedStreamID, errorCode: HTTP2ErrorCode.noError)
            }
            closeAfterFlush()
        }
        flush()
    }

    // MARK: Refused connections

    /// Closes the refused connection when `refusedConnectionTimeout` is over: with the
    /// refusal's GOAWAY if it was not answered yet.
    func armRefusalTimer(_ context: ChannelHandlerContext) {
        refusalTimer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(configuration.refusedConnectionTimeout)) {
            [self] in
            switch state.refusalTimerFired() {
            case .close:
                self.context?.close(promise: nil)
            case .goAwayAndClose:
                submitRefusalGoAway()
                sendQueuedThenClose(.all)
            }
        }
    }

    /// After the first answers on a refused connection: GOAWAY, then only our side is closed,
    /// so that closing with unread bytes does not reset the connection before the peer read
    /// the answers; the peer's close, or the refusal timer, ends it.
    func endRefusal() {
        submitRefusalGoAway()
        sendQueuedThenClose(.output)
    }

    private func submitRefusalGoAway() {
        guard let refusal, let session else { return }
        session.submitGoAway(
            lastStreamID: session.lastProcessedStreamID, errorCode: HTTP2ErrorCode.enhanceYourCalm, debugData: refusal.message)
    }

    func sendFinalGoAway() {
        guard let session, state.pingAcknowledged() else { return }
        session.submitGoAway(lastStreamID: session.lastProcessedStreamID, errorCode: HTTP2ErrorCode.noError)
    }
}
