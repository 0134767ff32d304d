import NIOCore
import RPCCore

/// Starting calls: a complete request head becomes a refusal, a rejection, an inline call or a
/// call for the connection's task.
extension ServerConnectionHandler {
    func endRequest(on stream: ServerStream) {
        stream.receiveEndOfStream()
        queueInlineAnswer(for: stream)
    }

    /// Notes an inline call whose request is complete; it is answered once the read that
    /// completed it is processed, so that a call the same read also cancelled (a rapid reset)
    /// costs no handler and no response.
    func queueInlineAnswer(for stream: ServerStream) {
        if stream.inlineRequestIsComplete { readyInlineCalls.append(stream) }
    }

    func answerReadyInlineCalls() {
        guard !readyInlineCalls.isEmpty else { return }
        defer { readyInlineCalls.removeAll(keepingCapacity: true) }
        guard let session, let wakeQueue, state.isOpen else { return }
        for stream in readyInlineCalls {
            stream.answerInlineCall(session: session, highWatermark: configuration.streamWriteBufferSize, wakeQueue: wakeQueue)
            account(stream)
        }
    }

    func startCall(on stream: ServerStream) {
        guard let session, let context, let wakeQueue else { return }
        let headers = stream.takeHeaders()
        if headers.path != nil { recentRequest = headers.reusable }
        if headers.overflowed, let reason = abuseGuard.headerListOverflowed() {
            // The connection closes once nghttp2 begins the next frame or the read ends.
            abuseReason = reason
            return
        }
        if let refusal {
            state.refusalAnswered()
            answer(stream, RequestValidation.refuse(headers, with: refusal.trailers), path: headers.path, session: session)
            return
        }
        if callRate?.admit() == false, let trailers = callRate?.refusal {
            answer(stream, RequestValidation.refuse(headers, with: trailers), path: headers.path, session: session)
            return
        }
        if buffered.isOverBudget {
            answer(stream, RequestValidation.refuse(headers, with: overBudgetTrailers), path: headers.path, session: session)
            return
        }
        switch RequestValidation.validate(headers, router: router, peer: peer, connection: connection, recentRoute: recentRoute) {
        case .failure(let rejected):
            answer(stream, rejected, path: headers.path, session: session)
        case .success(let accepted):
            recentRoute = (accepted.head.path, accepted.route)
            if let deadline = accepted.head.deadline {
                stream.armDeadline(on: context.eventLoop, at: deadline, connection: self)
            }
            if accepted.route.runsInline {
                stream.start(
                    accepted, call: nil, maxMessageSize: configuration.maxReceiveMessageSize,
                    metrics: metrics.method(for: accepted.route))
                return
            }
            let call = ServerCall(
                head: accepted.head, route: accepted.route, stream: stream, connection: self, wakeQueue: wakeQueue,
                eventLoop: context.eventLoop)
            stream.start(
                accepted, call: call, maxMessageSize: configuration.maxReceiveMessageSize,
                metrics: metrics.method(for: accepted.route))
            if calls == nil { calls = tasks.start(on: context.eventLoop) }
            guard case .enqueued = calls?.yield(call) else {
                stream.close()
                session.submitReset(streamID: stream.id, errorCode: HTTP2ErrorCode.refusedStream)
                return
            }
        }
    }

    /// Answers a call to `path` that does not start with `rejected`, trailers-only.
    func answer(_ stream: ServerStream, _ rejected: RequestValidation.Rejected, path: String?, session: NGHTTP2Session) {
        let path = path ?? ""
        stream.rejected(path: path, caller: rejected.caller, code: rejected.trailers.code, metrics: metrics.method(forPath: path))
        _ = session.submitResponse(streamID: stream.id, headers: rejected.headerFields, hasBody: false)
    }
}
