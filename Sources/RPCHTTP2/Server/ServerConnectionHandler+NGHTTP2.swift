import RPCCallLayer
import RPCCore
import RPCHTTP2Core

/// What nghttp2 reports of the connection: frames, header fields, request bodies and closed streams.
extension ServerConnectionHandler: NGHTTP2SessionDelegate {
    func session(beganFrame type: UInt8, flags: UInt8, streamID: Int32, length: Int) -> Bool {
        // A rapid-reset flood cancels each request in the same read that brought it, before
        // the server could start it; a client cancelling calls it sent earlier (a Watch it no
        // longer needs, calls whose deadlines passed together) does not, so only those count.
        // nghttp2 ignores a reset of a stream already closed here.
        if abuseReason != nil { return false }  // found since the last frame
        headerBlock.frameBegan(type: type, length: length)
        if type == FrameType.rstStream, calls.stream(streamID)?.openedInRead != readCount { return true }
        if type == FrameType.headers, calls.stream(streamID) == nil {
            switch clientStreams.judge(headersOn: streamID) {
            case .opens, .ignored: break
            case .violation(let errorCode, let reason):
                protocolViolation = (errorCode, reason)
                return false
            }
        }
        if let reason = abuseGuard.frameBegan(type: type, flags: flags) {
            abuseReason = reason
            return false
        }
        return true
    }

    func session(beganHeadersOn streamID: Int32, isRequest: Bool) {
        guard isRequest else { return }
        clientStreams.opened(streamID)
        calls.openStream(id: streamID, openedInRead: readCount)
        idleTimeout?.stop()
    }

    func session(header name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, on streamID: Int32) -> Bool {
        if let reason = headerBlock.field(nameCount: name.count, valueCount: value.count) {
            abuseReason = reason
            return false
        }
        guard let stream = calls.stream(streamID), !stream.isStarted else { return true }  // trailers are ignored
        stream.appendHeader(name: name, value: value)
        return true
    }

    func session(received frame: ReceivedFrame) {
        switch frame.type {
        case FrameType.headers:
            headDeadline?.met()
            guard let stream = calls.stream(frame.streamID) else { return }
            if !stream.isStarted { startCall(on: stream) }
            if frame.endStream { calls.endRequest(on: stream) }
        case FrameType.data:
            if frame.endStream, let stream = calls.stream(frame.streamID) { calls.endRequest(on: stream) }
        case FrameType.ping where frame.ack:
            keepalive?.acknowledged()
            sendFinalGoAway()
        default:
            break
        }
    }

    func session(dataChunk bytes: UnsafeRawBufferPointer, on streamID: Int32) {
        guard let session else { return }
        guard let stream = calls.stream(streamID) else {
            session.consume(streamID: streamID, count: bytes.count)
            return
        }
        session.consume(streamID: streamID, count: calls.receiveData(bytes, on: stream))
    }

    func session(closed streamID: Int32, errorCode: UInt32) {
        guard calls.closeStream(streamID) != nil else { return }
        if errorCode != HTTP2ErrorCode.noError { clientStreams.reset(streamID) }
        if calls.hasNoStreams { armIdleTimer() }
    }

    func session(readDataFor streamID: Int32, into buffer: UnsafeMutableRawBufferPointer) -> DataRead {
        guard let stream = calls.stream(streamID) else { return .bytes(count: 0, endOfData: true, endStream: true) }
        switch calls.readBody(of: stream, into: buffer) {
        case .bytes(let count): return .bytes(count: count, endOfData: false, endStream: false)
        case .last(let count, let trailersFollow): return .bytes(count: count, endOfData: true, endStream: !trailersFollow)
        case .deferred: return .deferred
        }
    }
}

extension ServerConnectionHandler {
    /// A request's header block is complete: the call starts on the connection's calls, unless
    /// the header list overflowed (abuse) or the connection was refused.
    func startCall(on stream: CallStream) {
        let headers = calls.takeHeaders(of: stream)
        if headers.overflowed, let reason = abuseGuard.headerListOverflowed() {
            // The connection closes once nghttp2 begins the next frame or the read ends.
            abuseReason = reason
            return
        }
        if let refusal {
            state.refusalAnswered()
            calls.answer(stream, RequestValidation.refuse(headers, with: refusal.trailers, router: calls.router), path: headers.path)
            return
        }
        calls.startCall(on: stream, headers: headers)
    }
}
