import RPCCore

/// What nghttp2 reports of the connection: frames, header fields, request bodies and closed streams.
extension ServerConnectionHandler: NGHTTP2SessionDelegate {
    func session(beganFrame type: UInt8, flags: UInt8, streamID: Int32, length: Int) -> Bool {
        // A rapid-reset flood cancels each request in the same read that brought it, before
        // the server could start it; a client cancelling calls it sent earlier (a Watch it no
        // longer needs, calls whose deadlines passed together) does not, so only those count.
        // nghttp2 ignores a reset of a stream already closed here.
        if abuseReason != nil { return false }  // found since the last frame
        headerBlock.frameBegan(type: type, length: length)
        if type == FrameType.rstStream, streams[streamID]?.openedInRead != readCount { return true }
        if type == FrameType.headers, streams[streamID] == nil {
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
        streams.insert(ServerStream(
            id: streamID, openedInRead: readCount, maxHeaderListSize: configuration.maxHeaderListSize, recent: recentRequest,
            timed: metrics.isRecording || accessLog != nil, accessLog: accessLog))
        metrics.streams.increment()
        idleSince = nil
        armSweep()
    }

    func session(header name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, on streamID: Int32) -> Bool {
        if let reason = headerBlock.field(nameCount: name.count, valueCount: value.count) {
            abuseReason = reason
            return false
        }
        guard let stream = streams[streamID], !stream.machine.isStarted else { return true }  // trailers are ignored
        stream.headers.append(name: name, value: value)
        return true
    }

    func session(received frame: ReceivedFrame) {
        switch frame.type {
        case FrameType.headers:
            guard let stream = streams[frame.streamID] else { return }
            if !stream.machine.isStarted { startCall(on: stream) }
            if frame.endStream { endRequest(on: stream) }
        case FrameType.data:
            if frame.endStream, let stream = streams[frame.streamID] { endRequest(on: stream) }
        case FrameType.ping where frame.ack:
            keepalive?.acknowledged()
            sendFinalGoAway()
        default:
            break
        }
    }

    func session(dataChunk bytes: UnsafeRawBufferPointer, on streamID: Int32) {
        guard let session else { return }
        guard let stream = streams[streamID] else {
            session.consume(streamID: streamID, count: bytes.count)
            return
        }
        session.consume(streamID: streamID, count: stream.receiveData(bytes))
        account(stream)
        queueInlineAnswer(for: stream)
    }

    func session(closed streamID: Int32, errorCode: UInt32) {
        guard let stream = streams.remove(streamID) else { return }
        if errorCode != HTTP2ErrorCode.noError { clientStreams.reset(streamID) }
        metrics.streams.decrement()
        // Bytes the call never read still hold the connection's window: give it back.
        session?.consume(streamID: streamID, count: stream.takeWithheldBytes())
        stream.close()
        release(stream)
        if streams.isEmpty { armIdleTimer() }
    }

    func session(readDataFor streamID: Int32, into buffer: UnsafeMutableRawBufferPointer) -> DataRead {
        guard let session, let stream = streams[streamID] else { return .bytes(count: 0, endOfData: true, endStream: true) }
        let read = stream.readData(
            into: buffer, session: session, lowWatermark: configuration.streamWriteBufferSize / 2,
            highWatermark: configuration.streamWriteBufferSize)
        account(stream)
        return read
    }
}
