import Logging
import NIOCore
import NIOHTTP1
import RPCCallLayer
import RPCCore

/// Serves one HTTP/1.1 connection (Connect and gRPC-Web; gRPC needs HTTP/2): the HTTP/1.1
/// front end of the connection's calls (`ConnectionCalls`), behind swift-nio's HTTP/1.1
/// decoder, encoder and pipelining handler, which hands it one request at a time. It feeds the
/// request head and body to the calls and writes what they answer: a response whose body is
/// complete at once with `content-length`, a stream chunked. Keep-alive unless the request or
/// a shutdown says otherwise.
///
/// What HTTP/1.1 decides (where the exchange is, how a head is framed, keep-alive) is
/// `HTTP1Exchange`'s; a head's input rules are `HTTP1RequestRefusal`'s, and the raw bytes
/// before the decoder are watched by `HTTP1ReadObserver` (a head that never ends, a chunk over the limit).
final class HTTP1ConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    let calls: ConnectionCalls
    let configuration: HTTP2ServerConfiguration
    let refusal: ConnectionRefusal?
    @exclusivity(unchecked) private var context: ChannelHandlerContext?
    /// Where the connection is: its request, the call serving it and its response.
    @exclusivity(unchecked) private var exchange = HTTP1Exchange<CallStream>()
    @exclusivity(unchecked) private var nextID: Int32 = 1
    @exclusivity(unchecked) private var isReading = false
    @exclusivity(unchecked) private var flushScheduled = false
    /// Closes the connection once it has had no request for `idleTimeout` (see `armIdleTimer`);
    /// `nil` with no idle timeout.
    @exclusivity(unchecked) private var idleTimeout: LazyTimeout?
    @exclusivity(unchecked) private var graceTimer: Scheduled<Void>?
    /// Drops the connection when a request head has been arriving for `requestHeadTimeout`
    /// (see `bytesArrived`); `nil` with no such timeout.
    @exclusivity(unchecked) private var headTimeout: LazyTimeout?
    /// A chunk declared a size over the message limit (`HTTP1ReadObserver`): the parse error
    /// that follows is answered 413.
    @exclusivity(unchecked) var chunkOverLimit = false
    /// The call's reader is behind (its request messages pile up): the socket is not read until
    /// it catches up (`creditRequestBytes`), so a client streaming faster than the handler
    /// reads is held back by TCP, as HTTP/2's flow control holds it back.
    @exclusivity(unchecked) private var readsHeld = false
    /// A read asked for while reads were held, made once they resume.
    @exclusivity(unchecked) private var readPending = false
    /// Times the connection from accept until its first request head; `nil`: not timed.
    private let headDeadline: RequestHeadDeadline?

    init(
        calls: ConnectionCalls, configuration: HTTP2ServerConfiguration, refusal: ConnectionRefusal?,
        headDeadline: RequestHeadDeadline? = nil
    ) {
        self.calls = calls
        self.configuration = configuration
        self.refusal = refusal
        self.headDeadline = headDeadline
    }

    // MARK: Channel events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard !calls.isOpened, !exchange.isClosing else { return }
        calls.open(frontEnd: self, loop: EventLoopCallLoop(context.eventLoop), remoteAddress: context.channel.remoteAddress)
        // The timeouts hold this handler strongly until `handlerRemoved`: a weak reference
        // would put every retain of the handler on the slow path.
        if let timeout = configuration.idleTimeout {
            idleTimeout = LazyTimeout(timeout, on: context.eventLoop) { [self] in
                calls.logger.debug("closing idle HTTP/1.1 connection")
                calls.metrics.closed(.idleTimeout)
                closeNow()
            }
        }
        if let timeout = configuration.requestHeadTimeout {
            headTimeout = LazyTimeout(timeout, on: context.eventLoop) { [self] in
                calls.warnings.warning(
                    "closing connection: request head incomplete", metadata: ["timeout": "\(timeout)"], on: calls.logger)
                calls.metrics.closed(.headTimeout)
                closeNow()
            }
        }
        headDeadline?.close = { [self] in closeNow() }
        armIdleTimer()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !exchange.isClosing else { return }
        isReading = true
        defer { isReading = false }
        switch unwrapInboundIn(data) {
        case .head(let head):
            headDeadline?.met()
            idleTimeout?.stop()
            headTimeout?.stop()
            begin(head)
        case .body(let buffer):
            guard let call = exchange.bodyReceiver() else { return }
            let credited = buffer.withUnsafeReadableBytes { calls.receiveData($0, on: call) }
            if credited < buffer.readableBytes { readsHeld = true }
        case .end:
            if let call = exchange.requestEnded() { calls.endRequest(on: call) }
        }
        calls.answerReadyInlineCalls()
        calls.shedOverBudget()
        pump()
    }

    func read(context: ChannelHandlerContext) {
        guard !readsHeld else {
            readPending = true
            return
        }
        context.read()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { pump() }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        _ = exchange.close()
        idleTimeout?.cancel()
        graceTimer?.cancel()
        headTimeout?.cancel()
        calls.close()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        headDeadline?.met()
        idleTimeout?.cancel()
        headTimeout?.cancel()
        idleTimeout = nil
        headTimeout = nil
        calls.releaseCallbacks()
    }

    /// A request that does not parse (contract §1.1's input rules) is answered 400, 431 for a
    /// header block over the limit, or 413 for a chunk over the message limit, with a Connect
    /// error body, when no response is under way; then the connection closes.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        calls.logger.debug("HTTP/1.1 connection error", metadata: ["error": "\(error)"])
        guard let parserError = error as? HTTPParserError else { return closeNow() }
        switch exchange.parseFailed() {
        case .none:
            return
        case .close:
            context.close(promise: nil)
        case .answerAndClose:
            let status: HTTPResponseStatus =
                if chunkOverLimit {
                    .payloadTooLarge
                } else if parserError == .headerOverflow {
                    .requestHeaderFieldsTooLarge
                } else {
                    .badRequest
                }
            // No call: the answer a refused call gets (`RequestValidation.Rejected`), written here.
            let rejected = RequestValidation.Rejected(
                httpStatus: Int(status.code), contentType: .connectJSON, trailers: HTTP1RequestRefusal.trailers(for: status))
            let answer = rejected.answer(detailNames: configuration.errorDetailNames)
            let body = answer.body ?? []
            var head = Self.responseHead(answer.head)
            head.headers.add(name: "connection", value: "close")
            head.headers.add(name: "content-length", value: String(body.count))
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ServerConnectionHandler.GracefulShutdownEvent {
            beginGracefulShutdown()
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    // MARK: Requests

    /// A request head arrived: its call starts, or it is answered at once.
    private func begin(_ head: HTTPRequestHead) {
        let stream = calls.openStream(id: nextID, openedInRead: 0)
        nextID = nextID == .max ? 1 : nextID + 1
        let takesBody = head.method != .GET && head.method != .HEAD
        guard exchange.requestBegan(stream, keepAlive: head.isKeepAlive, takesBody: takesBody) else {
            _ = calls.closeStream(stream.id)
            return
        }
        stream.appendHeader(name: ":method", value: head.method.rawValue)
        stream.appendHeader(name: ":path", value: head.uri)
        for (name, value) in head.headers {
            stream.appendHeader(name: name.utf8.contains(where: { (65...90).contains($0) }) ? name.lowercased() : name, value: value)
        }
        let headers = calls.takeHeaders(of: stream)
        if let status = HTTP1RequestRefusal.status(of: head, headers: headers, maxMessageSize: configuration.maxReceiveMessageSize) {
            answerAndClose(stream, status: status, headers: headers)
            return
        }
        if let refusal {
            exchange.closeAfterResponse()
            calls.answer(stream, RequestValidation.refuse(headers, with: refusal.trailers, router: calls.router), path: headers.path)
            return
        }
        if let contentType = headers.contentType.flatMap(calls.router.contentType(headerValue:)), contentType.framing == .grpc {
            let trailers = ResponseTrailers(code: .internalError, message: "gRPC needs HTTP/2: over HTTP/1.1, call with Connect or gRPC-Web")
            calls.answer(stream, RequestValidation.Rejected(httpStatus: 415, contentType: nil, trailers: trailers), path: headers.path)
            return
        }
        if let path = headers.path, let route = calls.route(at: path), route.descriptor.kind == .bidirectional {
            // Full duplex needs HTTP/2 (contract §1.1, as in connect-go).
            exchange.closeAfterResponse()
            let trailers = ResponseTrailers(
                code: .unimplemented, message: "\(path) is bidirectional streaming, which needs HTTP/2")
            calls.answer(
                stream, RequestValidation.Rejected(httpStatus: 505, contentType: .connectJSON, trailers: trailers), path: path)
            return
        }
        calls.startCall(on: stream, headers: headers)
    }

    /// Answers a request that breaks HTTP/1.1's rules with `status` and a Connect error body, then closes.
    private func answerAndClose(_ stream: CallStream, status: HTTPResponseStatus, headers: RequestHeaders) {
        exchange.closeAfterResponse()
        let rejected = RequestValidation.Rejected(
            httpStatus: Int(status.code), contentType: .connectJSON, trailers: HTTP1RequestRefusal.trailers(for: status))
        calls.answer(stream, rejected, path: headers.path)
    }

    // MARK: Writing

    /// Writes what the current call's response has, while the channel takes it.
    private func pump() {
        // Nothing to write before the response started (a request part arrived, say).
        guard let context, let stream = exchange.respondingCall else { return }
        var wrote = false
        while context.channel.isWritable || exchange.headIsReady {
            // As large as what waits (a unary answer in one piece), within 256 bytes and 64 KiB.
            let size = min(max(stream.queuedResponseBytes, 256), 64 * 1024)
            var buffer = context.channel.allocator.buffer(capacity: size)
            var read = ResponseBodyRead.deferred
            buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: size) { bytes in
                read = calls.readBody(of: stream, into: bytes)
                switch read {
                case .bytes(let count), .last(let count, _): return count
                case .deferred: return 0
                }
            }
            switch read {
            case .bytes:
                writeHead(contentLength: nil)
                context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
                wrote = true
            case .last:
                writeHead(contentLength: buffer.readableBytes)
                if buffer.readableBytes > 0 { context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil) }
                endResponse(context)
                return
            case .deferred:
                if exchange.headIsReady {
                    writeHead(contentLength: nil)
                    wrote = true
                }
                if wrote { context.flush() }
                return
            }
        }
        if wrote { context.flush() }
    }

    /// Writes the response head if it waits for the first body bytes.
    private func writeHead(contentLength: Int?) {
        guard let context, let head = exchange.takeHead(contentLength: contentLength) else { return }
        context.write(wrapOutboundOut(.head(head)), promise: nil)
    }

    /// The response is written: the next request may come, or the connection closes.
    private func endResponse(_ context: ChannelHandlerContext) {
        switch exchange.responseWritten() {
        case .none:
            return
        case .keepOpen(let stream):
            // No promise: a future a response would cost an allocation.
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            calls.closeStream(stream.id)
            armIdleTimer()
        case .close(let stream):
            let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
            calls.closeStream(stream.id)
            written.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }

    // MARK: Timers

    /// Bytes arrived (`HTTP1ReadObserver`): while no request is being served they begin a head,
    /// which must be complete within `requestHeadTimeout`, or the connection is dropped.
    func bytesArrived() {
        guard exchange.isBetweenRequests else { return }
        headTimeout?.start()
    }

    /// Notes that the connection has no request from now on.
    private func armIdleTimer() {
        guard exchange.isBetweenRequests else { return }
        idleTimeout?.restart()
    }

    /// In-flight request finishes (within the grace period), then the connection closes.
    private func beginGracefulShutdown() {
        guard let context else { return }
        switch exchange.gracefulShutdown() {
        case .none:
            return
        case .closeNow:
            context.close(promise: nil)
        case .finishThenClose:
            graceTimer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(configuration.shutdownGracePeriod)) { [self] in
                let cut = calls.cutRunningCalls()
                calls.logger.info("closing connection: shutdown grace period over", metadata: ["calls_cut": "\(cut)"])
                pump()
                if exchange.call != nil { closeNow() }
            }
        }
    }

    private func closeNow() {
        guard let context, exchange.close() else { return }
        context.close(promise: nil)
    }
}

extension HTTP1ConnectionHandler: CallFrontEnd {
    var isOpen: Bool { !exchange.isClosing && context != nil }

    /// The head of most Connect answers, made once.
    private static let plainConnectJSONHead = HTTPResponseHead(
        version: .http1_1, status: .ok, headers: HTTPHeaders([("content-type", ContentType.connectJSON.headerValue)]))

    func sendResponseHead(_ head: ResponseHead, of stream: CallStream, hasBody: Bool) {
        guard let context else { return }
        let response = if case .plain(.connectJSON) = head { Self.plainConnectJSONHead } else { Self.responseHead(head) }
        switch exchange.responseHead(response, of: stream, hasBody: hasBody) {
        case .none, .held:
            break
        case .writeAndEnd(let head):
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            endResponse(context)
        }
    }

    /// The fields that frame an HTTP/1.1 message: the front end's alone (`writeHead`), whatever
    /// metadata a handler added.
    private static let framingFields: Set<String> = [
        "content-length", "connection", "transfer-encoding", "keep-alive", "proxy-connection", "upgrade",
    ]

    private static func responseHead(_ head: ResponseHead) -> HTTPResponseHead {
        let fields: [(name: String, value: String)] =
            switch head {
            case .plain(let contentType): ResponseFraming.plainHeadFields(contentType)
            case .fields(let fields): fields
            }
        var status = HTTPResponseStatus.ok
        var headers = HTTPHeaders()
        for (name, value) in fields {
            if name == ":status" {
                status = HTTPResponseStatus(statusCode: Int(value) ?? 500)
            } else if !framingFields.contains(name) {
                headers.add(name: name, value: value)
            }
        }
        return HTTPResponseHead(version: .http1_1, status: status, headers: headers)
    }

    func resumeResponseBody(of stream: CallStream) {
        if stream === exchange.call { scheduleFlush() }
    }

    func sendTrailers(_ trailers: ResponseTrailers, of stream: CallStream) {
        // Only gRPC ends with trailers, and it is not served over HTTP/1.1.
    }

    func reset(_ stream: CallStream, _ reason: StreamReset) {
        let cleanly = if case .noError = reason { true } else { false }
        if exchange.mustCloseOnReset(of: stream, cleanly: cleanly) { closeNow() }
    }

    /// The call's reader caught up (or its stream closed): reading resumes.
    func creditRequestBytes(_ count: Int, of stream: CallStream) {
        guard count > 0, readsHeld else { return }
        readsHeld = false
        if readPending, let context {
            readPending = false
            context.read()
        }
    }

    func scheduleFlush() {
        guard !isReading, !flushScheduled, let context else { return }
        flushScheduled = true
        context.eventLoop.assumeIsolated().execute { [self] in
            flushScheduled = false
            pump()
        }
    }

    func flush() {
        pump()
    }

    func closeAbusive(_ reason: String) {
        guard !exchange.isClosing else { return }
        calls.warnings.warning("closing abusive connection", metadata: ["reason": "\(reason)"], on: calls.logger)
        calls.metrics.closed(.abuse)
        closeNow()
    }
}
