import CNGHTTP2
#if ClientTLS
import RPCHTTP2TLS
#endif
import NIOCore
import RPCCore
import RPCHTTP2Core

/// Drives the client side of one HTTP/2 connection through nghttp2.
final class ClientConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let configuration: HTTP2ClientConfiguration
    /// The codec of every request's content type, which each answer's must match.
    private let requestCodec: String?
    private let authority: String
    private let scheme: String
    private var session: NGHTTP2Session?
    private var context: ChannelHandlerContext?
    private var streams: [Int32: ClientStream] = [:]
    private var isReading = false
    private var flushScheduled = false
    /// Open, or closing: no new call can start (GOAWAY sent or received, or a failure).
    private var state = StateMachine()
    private var keepalive: KeepalivePinger?
    /// The response header blocks' decoding cost (an HPACK bomb from the server ends the connection).
    private var headerBlock = HeaderBlockBudget(limit: ClientStream.maxHeaderListSize)
    /// Why a callback stopped nghttp2, when one did.
    private var stopReason: String?

    init(configuration: HTTP2ClientConfiguration, authority: String) {
        self.configuration = configuration
        requestCodec = configuration.resolvedContentType?.codecName
        self.authority = authority
        self.scheme = configuration.usesTLS ? "https" : "http"
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let session = NGHTTP2Session(role: .client, delegate: self)
        self.session = session
        session.submitSettings([
            (Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), UInt32(configuration.streamWindowSize)),
            (Int32(NGHTTP2_SETTINGS_ENABLE_PUSH.rawValue), 0),
        ])
        session.setConnectionWindow(Int32(clamping: configuration.connectionWindowSize))
        keepalive = makeKeepalive(context)
        if context.channel.isActive {
            armKeepaliveTimer()
            flush()
        }
    }

    func channelActive(context: ChannelHandlerContext) {
        armKeepaliveTimer()
        flush()
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let session else { return }
        let buffer = unwrapInboundIn(data)
        if state.bytesReceived() {
            if !configuration.usesTLS && Self.looksLikeTLS(buffer) {
                failAll(RPCError(.unavailable, "the server answered with TLS to this cleartext connection: connect with TLS"))
                context.close(promise: nil)
                return
            }
        }
        keepalive?.received()
        isReading = true
        defer { isReading = false }
        do {
            try buffer.withUnsafeReadableBytes { (bytes) throws(NGHTTP2Session.SessionError) in try session.receive(bytes) }
        } catch {
            failAll(RPCError(.unavailable, "HTTP/2 protocol error: \(stopReason ?? "\(error)")"))
            context.close(promise: nil)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        flush()
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { flush() }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        keepalive?.stop()
        failAll(RPCError(
            .unavailable,
            state.heardFromServer || configuration.usesTLS
                ? "the connection closed"
                : "the server closed the connection without a word (does it expect TLS?)"))
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        // The context holds this handler: keeping it would leak the connection once closed.
        self.context = nil
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        #if ClientTLS
        failAll(RPCError(.unavailable, "connection error: \(TLSFailure(error, peer: "server"))"))
        #else
        failAll(RPCError(.unavailable, "connection error: \(error)"))
        #endif
        context.close(promise: nil)
    }

    /// Whether `buffer` starts like a TLS record (a handshake or an alert, SSL 3 to TLS 1.3).
    /// No HTTP/2 server starts so: its first frame is SETTINGS, whose 3-byte length would
    /// then be over 1 MiB.
    private static func looksLikeTLS(_ buffer: ByteBuffer) -> Bool {
        guard let type = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self),
            let major = buffer.getInteger(at: buffer.readerIndex + 1, as: UInt8.self)
        else { return false }
        return (type == 0x15 || type == 0x16) && major == 0x03
    }

    // MARK: Calls (on the event loop)

    /// Opens a stream for `call`; throws UNAVAILABLE when the connection cannot take one.
    func open(_ call: ClientCall, method: MethodDescriptor, options: CallOptions) throws(RPCError) {
        if let reason = state.unavailableReason { throw RPCError(.unavailable, reason) }
        guard let session, let context else { throw RPCError(.unavailable, "the connection is not ready") }
        var headers: [(name: String, value: String)] = [
            (":method", "POST"), (":scheme", scheme), (":path", method.path), (":authority", authority),
            ("content-type", configuration.contentType), ("te", "trailers"), ("user-agent", "rpchttp2-swift/1"),
            ("grpc-accept-encoding", CompressionAlgorithm.acceptEncodingHeader),
        ]
        if options.compression != .identity { headers.append(("grpc-encoding", options.compression.name)) }
        if let timeout = options.timeout { headers.append(("grpc-timeout", GRPCTimeout.format(timeout))) }
        headers.append(contentsOf: options.metadata.headerFields)

        let state = ClientStream(
            call: call,
            compression: options.compression,
            maxMessageSize: configuration.maxReceiveMessageSize,
            maxHeaderListSize: ClientStream.maxHeaderListSize
        )
        state.machine.requestCodec = requestCodec
        state.machine.detailTrailer = configuration.errorDetailNames.trailer
        guard let id = session.submitRequest(headers: headers) else {
            throw RPCError(.unavailable, "the connection cannot open more streams")
        }
        state.id = id
        streams[id] = state
        call.attach(state)
        if let timeout = options.timeout {
            state.deadlineTimer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(timeout)) { [self] in
                cancel(state, error: RPCError(.deadlineExceeded, "deadline of \(timeout) exceeded"))
            }
        }
        scheduleFlush()
    }

    /// Queues a request message the caller counted as `counted` bytes (see `ClientCall`).
    func send(_ message: [UInt8], framed: Bool, endOfStream: Bool, counted: Int, on state: ClientStream) {
        // After the response ended the message is dropped: the call's status is its outcome,
        // and the caller's next send throws.
        guard let session, !state.machine.isFinished, streams[state.id] === state else { return }
        state.enqueue(message, framed: framed, endOfStream: endOfStream, counted: counted, session: session)
        scheduleFlush()
    }

    /// Ends a call early with `error` and resets its stream.
    func cancel(_ state: ClientStream, error: RPCError) {
        state.finish(error)
        if streams[state.id] === state {
            session?.submitReset(streamID: state.id, errorCode: HTTP2ErrorCode.cancel)
            scheduleFlush()
        }
    }

    func returnWithheldCredit(_ state: ClientStream) {
        guard streams[state.id] === state else { return }
        session?.consume(streamID: state.id, count: state.takeWithheldBytes())
        scheduleFlush()
    }

    /// Sends GOAWAY and closes once the open calls are done.
    func beginClose() {
        guard let session, state.closeRequested() else { return }
        session.submitGoAway(lastStreamID: 0, errorCode: HTTP2ErrorCode.noError)
        flush()
    }

    /// Ends the calls still open with `error`, resetting their streams, and closes.
    func closeNow(_ error: RPCError) {
        guard let context else { return }
        let open = Array(streams.keys)
        failAll(error)
        for id in open { session?.submitReset(streamID: id, errorCode: HTTP2ErrorCode.cancel) }
        flush()
        context.close(promise: nil)
    }

    // MARK: Keepalive

    private func armKeepaliveTimer() {
        guard let context, context.channel.isActive else { return }
        keepalive?.start()
    }

    /// PINGs the server unless something arrived since the last PING; an unanswered PING
    /// closes the connection, so calls on a silently dead peer fail instead of hanging.
    private func makeKeepalive(_ context: ChannelHandlerContext) -> KeepalivePinger? {
        let timeout = configuration.keepaliveTimeout
        return KeepalivePinger(
            interval: configuration.keepaliveInterval, timeout: timeout, eventLoop: context.eventLoop,
            sendPing: { [weak self] in
                guard let self, let session, context.channel.isActive else { return }
                session.submitPing()
                flush()
            },
            onTimeout: { [weak self] in
                self?.failAll(RPCError(.unavailable, "keepalive PING unanswered for \(timeout)"))
                context.close(promise: nil)
            })
    }

    // MARK: Writing

    private func scheduleFlush() {
        guard !isReading, !flushScheduled, let context else { return }
        flushScheduled = true
        context.eventLoop.assumeIsolated().execute { [self] in
            flushScheduled = false
            flush()
        }
    }

    private func flush() {
        guard let session, let context, context.channel.isActive else { return }
        do {
            if try session.write(to: context) { scheduleFlush() }
        } catch {
            failAll(RPCError(.unavailable, "HTTP/2 session failed: \(error)"))
            context.close(promise: nil)
            return
        }
        if state.shouldClose(openStreams: streams.count) { context.close(promise: nil) }
    }

    private func failAll(_ error: RPCError) {
        state.failed(error.message)
        for state in streams.values { state.finish(error) }
        streams.removeAll()
    }
}

extension ClientConnectionHandler: NGHTTP2SessionDelegate {
    func session(beganFrame type: UInt8, flags: UInt8, streamID: Int32, length: Int) -> Bool {
        headerBlock.frameBegan(type: type, length: length)
        return true
    }

    func session(beganHeadersOn streamID: Int32, isRequest: Bool) {
        streams[streamID]?.beginHeaders()
    }

    func session(header name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, on streamID: Int32) -> Bool {
        if let reason = headerBlock.field(nameCount: name.count, valueCount: value.count) {
            stopReason = reason
            return false
        }
        streams[streamID]?.appendHeader(name: name, value: value)
        return true
    }

    func session(received frame: ReceivedFrame) {
        switch frame.type {
        case FrameType.headers:
            guard let state = streams[frame.streamID] else { return }
            state.headersEnded(endStream: frame.endStream)
            if state.machine.stopsRequest {
                // The server answered before the request ended: stop sending it.
                session?.submitReset(streamID: state.id, errorCode: HTTP2ErrorCode.cancel)
            }
        case FrameType.data where frame.endStream:
            streams[frame.streamID]?.finish(RPCError(.internalError, "the response ended without trailers"))
        case FrameType.ping where frame.ack:
            keepalive?.acknowledged()
        case FrameType.goAway:
            state.goAwayReceived(errorCode: frame.errorCode, debugData: frame.debugData)
        default:
            break
        }
    }

    func session(dataChunk bytes: UnsafeRawBufferPointer, on streamID: Int32) {
        let credit = streams[streamID]?.receiveData(bytes) ?? bytes.count
        session?.consume(streamID: streamID, count: credit)
    }

    func session(closed streamID: Int32, errorCode: UInt32) {
        guard let state = streams.removeValue(forKey: streamID) else { return }
        // Bytes the caller never read (it cancelled) still hold the connection's window: give it back.
        session?.consume(streamID: streamID, count: state.takeWithheldBytes())
        state.closed(errorCode: errorCode)
    }

    func session(readDataFor streamID: Int32, into buffer: UnsafeMutableRawBufferPointer) -> DataRead {
        guard let state = streams[streamID] else { return .bytes(count: 0, endOfData: true, endStream: true) }
        return state.readData(into: buffer, lowWatermark: configuration.streamWriteBufferSize / 2)
    }
}
