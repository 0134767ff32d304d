import CNGHTTP2
import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One nghttp2 session: HPACK, frames, flow control and stream states of one connection.
///
/// Owned by a connection handler and used only on its event loop. C pointers never leave
/// this file and the callbacks beside it.
package final class NGHTTP2Session {
    package enum Role { case server, client }

    /// A fatal session error: the connection must be closed.
    package struct SessionError: Error, CustomStringConvertible {
        let code: Int
        package var description: String { String(cString: nghttp2_strerror(Int32(code))) }
        /// The peer made nghttp2 queue too many control-frame answers.
        package var isFlood: Bool { code == Int(NGHTTP2_ERR_FLOODED.rawValue) }
    }

    private let pointer: OpaquePointer
    unowned(unsafe) let delegate: any NGHTTP2SessionDelegate
    /// DATA frames made so far from the delegate's body reads. (Counted on every DATA frame,
    /// only ever on the event loop: no run-time exclusivity check.)
    @exclusivity(unchecked) package fileprivate(set) var dataFramesSent = 0

    /// - Parameter maxOutboundAcks: SETTINGS and PING acknowledgements nghttp2 may queue
    ///   before it declares a flood.
    package init(role: Role, delegate: any NGHTTP2SessionDelegate, maxOutboundAcks: Int = 100) {
        self.delegate = delegate
        var callbacks: OpaquePointer?
        precondition(nghttp2_session_callbacks_new(&callbacks) == 0, "out of memory")
        defer { nghttp2_session_callbacks_del(callbacks) }
        Self.installCallbacks(callbacks)

        var option: OpaquePointer?
        precondition(nghttp2_option_new(&option) == 0, "out of memory")
        defer { nghttp2_option_del(option) }
        nghttp2_option_set_no_auto_window_update(option, 1)
        nghttp2_option_set_no_closed_streams(option, 1)
        nghttp2_option_set_max_outbound_ack(option, maxOutboundAcks)
        BackportedLimits.defer(to: option)

        var session: OpaquePointer?
        let status =
            switch role {
            case .server: nghttp2_session_server_new2(&session, callbacks, nil, option)
            case .client: nghttp2_session_client_new2(&session, callbacks, nil, option)
            }
        guard status == 0, let session else { fatalError("nghttp2_session_new failed: \(status)") }
        pointer = session
        nghttp2_session_set_user_data(session, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { nghttp2_session_del(pointer) }

    /// Feeds received bytes; delegate callbacks run inside.
    package func receive(_ bytes: UnsafeRawBufferPointer) throws(SessionError) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let result = nghttp2_session_mem_recv(pointer, base.assumingMemoryBound(to: UInt8.self), bytes.count)
        if result < 0 { throw SessionError(code: result) }
    }

    /// Appends every frame nghttp2 has ready to `buffer`; stops early once `limit` bytes
    /// were appended so that a slow socket is not flooded.
    package func send(into buffer: inout ByteBuffer, limit: Int) throws(SessionError) {
        var written = 0
        while written < limit {
            var data: UnsafePointer<UInt8>?
            let count = nghttp2_session_mem_send(pointer, &data)
            if count < 0 { throw SessionError(code: count) }
            guard count > 0, let data else { return }
            buffer.writeBytes(UnsafeRawBufferPointer(start: data, count: count))
            written += count
        }
    }

    /// Writes the frames nghttp2 has ready to the channel, while it is writable, up to 1 MiB at
    /// a time; returns whether more are waiting (the caller schedules another write).
    package func write(to context: ChannelHandlerContext) throws(SessionError) -> Bool {
        guard context.channel.isWritable else { return false }
        var buffer = context.channel.allocator.buffer(capacity: 16 * 1024)
        try send(into: &buffer, limit: 1024 * 1024)
        if buffer.readableBytes > 0 { context.writeAndFlush(NIOAny(buffer), promise: nil) }
        return wantsWrite && context.channel.isWritable
    }

    /// Whether the session still wants to read or write; both false: close the connection.
    package var isFinished: Bool { nghttp2_session_want_read(pointer) == 0 && nghttp2_session_want_write(pointer) == 0 }

    /// Whether frames are waiting to be sent.
    package var wantsWrite: Bool { nghttp2_session_want_write(pointer) != 0 }

    /// The highest stream id the peer opened and we processed.
    package var lastProcessedStreamID: Int32 { nghttp2_session_get_last_proc_stream_id(pointer) }

    package func submitSettings(_ settings: [(id: Int32, value: UInt32)]) {
        let entries = settings.map { nghttp2_settings_entry(settings_id: $0.id, value: $0.value) }
        let status = entries.withUnsafeBufferPointer {
            nghttp2_submit_settings(pointer, UInt8(NGHTTP2_FLAG_NONE.rawValue), $0.baseAddress, $0.count)
        }
        precondition(status == 0, "invalid SETTINGS: \(status)")
    }

    /// Widens the connection-level receive window to `size` bytes.
    package func setConnectionWindow(_ size: Int32) {
        _ = nghttp2_session_set_local_window_size(pointer, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, size)
    }

    /// Submits response headers; with `hasBody` the body comes from the delegate's reads,
    /// without it the headers end the stream (a trailers-only response).
    package func submitResponse(streamID: Int32, headers: [(name: String, value: String)], hasBody: Bool) -> Bool {
        withHeaderFields(headers) { submitResponse(streamID: streamID, fields: $0, count: $1, hasBody: hasBody) }
    }

    /// Submits a prepared block of response headers, which nghttp2 takes without copying it.
    package func submitResponse(streamID: Int32, prepared block: PreparedHeaderBlock, hasBody: Bool) -> Bool {
        submitResponse(streamID: streamID, fields: block.fields.baseAddress, count: block.fields.count, hasBody: hasBody)
    }

    private func submitResponse(streamID: Int32, fields: UnsafePointer<nghttp2_nv>?, count: Int, hasBody: Bool) -> Bool {
        guard hasBody else { return nghttp2_submit_response(pointer, streamID, fields, count, nil) == 0 }
        var provider = Self.dataProvider
        return nghttp2_submit_response(pointer, streamID, fields, count, &provider) == 0
    }

    /// Submits trailers; call from `readDataFor` before answering `endStream: false`.
    package func submitTrailers(streamID: Int32, headers: [(name: String, value: String)]) {
        _ = withHeaderFields(headers) { nghttp2_submit_trailer(pointer, streamID, $0, $1) }
    }

    /// Submits prepared trailers, which nghttp2 takes without copying them.
    package func submitTrailers(streamID: Int32, prepared block: PreparedHeaderBlock) {
        _ = nghttp2_submit_trailer(pointer, streamID, block.fields.baseAddress, block.fields.count)
    }

    /// Opens a request stream with a body from the delegate's reads; returns its id, or
    /// `nil` when no stream can be opened (ids exhausted, session going away).
    package func submitRequest(headers: [(name: String, value: String)]) -> Int32? {
        let id = withHeaderFields(headers) { fields, count in
            var provider = Self.dataProvider
            return nghttp2_submit_request(pointer, nil, fields, count, &provider, nil)
        }
        return id > 0 ? id : nil
    }

    package func submitReset(streamID: Int32, errorCode: UInt32) {
        _ = nghttp2_submit_rst_stream(pointer, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, errorCode)
    }

    package func submitPing() {
        _ = nghttp2_submit_ping(pointer, UInt8(NGHTTP2_FLAG_NONE.rawValue), nil)
    }

    /// Tells the peer that a GOAWAY is coming (graceful shutdown, first step).
    package func submitShutdownNotice() {
        _ = nghttp2_submit_shutdown_notice(pointer)
    }

    /// Sends GOAWAY: streams above `lastStreamID` are refused, the others may finish.
    package func submitGoAway(lastStreamID: Int32, errorCode: UInt32, debugData: String = "") {
        let debug = Array(debugData.utf8)
        _ = debug.withUnsafeBufferPointer {
            nghttp2_submit_goaway(pointer, UInt8(NGHTTP2_FLAG_NONE.rawValue), lastStreamID, errorCode, $0.baseAddress, $0.count)
        }
    }

    /// Sends GOAWAY with the last processed stream and stops taking new frames.
    package func terminate(errorCode: UInt32) {
        _ = nghttp2_session_terminate_session(pointer, errorCode)
    }

    /// Wakes a stream whose body read answered `.deferred`.
    package func resumeData(streamID: Int32) {
        _ = nghttp2_session_resume_data(pointer, streamID)
    }

    /// Acknowledges `count` received body bytes, letting WINDOW_UPDATEs go out.
    package func consume(streamID: Int32, count: Int) {
        guard count > 0 else { return }
        _ = nghttp2_session_consume(pointer, streamID, count)
    }

    private static var dataProvider: nghttp2_data_provider {
        var provider = nghttp2_data_provider()
        provider.read_callback = readDataCallback
        return provider
    }

    /// Calls `body` with an `nghttp2_nv` array over one contiguous byte buffer, both in
    /// temporary storage (on the stack when small: a response's headers are copied by
    /// nghttp2 before `body` returns).
    private func withHeaderFields<T>(
        _ headers: [(name: String, value: String)],
        _ body: (UnsafePointer<nghttp2_nv>, Int) -> T
    ) -> T {
        let byteCount = headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, byteCount)) { bytes in
            withUnsafeTemporaryAllocation(of: nghttp2_nv.self, capacity: max(1, headers.count)) { fields in
                var offset = 0
                func place(_ text: String) -> (UnsafeMutablePointer<UInt8>, Int) {
                    let start = bytes.baseAddress! + offset
                    let count = UnsafeMutableBufferPointer(rebasing: bytes[offset...]).initialize(fromContentsOf: text.utf8)
                    offset += count
                    return (start, count)
                }
                for (index, (name, value)) in headers.enumerated() {
                    let (namePointer, nameLength) = place(name)
                    let (valuePointer, valueLength) = place(value)
                    fields.initializeElement(
                        at: index,
                        to: nghttp2_nv(
                            name: namePointer, value: valuePointer, namelen: nameLength, valuelen: valueLength,
                            flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue)))
                }
                return body(fields.baseAddress!, headers.count)
            }
        }
    }

    private static func installCallbacks(_ callbacks: OpaquePointer?) {
        nghttp2_session_callbacks_set_on_begin_frame_callback(callbacks, beginFrameCallback)
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, beginHeadersCallback)
        nghttp2_session_callbacks_set_on_header_callback(callbacks, headerCallback)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, frameReceivedCallback)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, dataChunkCallback)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, streamClosedCallback)
    }

    fileprivate static func from(_ userData: UnsafeMutableRawPointer?) -> NGHTTP2Session {
        Unmanaged<NGHTTP2Session>.fromOpaque(userData!).takeUnretainedValue()
    }
}

/// Debian's nghttp2 1.52 carries backported limiters (rapid reset, CONTINUATION count) that
/// upstream 1.52 lacks. Where they exist they are set above `AbuseGuard`'s limits, so that
/// one policy (ours, with ENHANCE_YOUR_CALM) applies whichever build is installed. They are
/// looked up at run time because upstream headers do not declare them.
private enum BackportedLimits {
    private typealias SetResetRateLimit = @convention(c) (OpaquePointer?, UInt64, UInt64) -> Void
    private typealias SetMaxContinuations = @convention(c) (OpaquePointer?, Int) -> Void

    private static let setResetRateLimit: SetResetRateLimit? = symbol("nghttp2_option_set_stream_reset_rate_limit")
    private static let setMaxContinuations: SetMaxContinuations? = symbol("nghttp2_option_set_max_continuations")

    static func `defer`(to option: OpaquePointer?) {
        setResetRateLimit?(option, UInt64(Int32.max), UInt64(Int32.max))
        setMaxContinuations?(option, 1024)
    }

    private static func symbol<T>(_ name: String) -> T? {
        guard let address = dlsym(nil, name) else { return nil }  // nil is RTLD_DEFAULT on Linux
        return unsafeBitCast(address, to: T.self)
    }
}

// MARK: - C callbacks: recover the session from user_data and forward to its delegate.

private let callbackFailure = Int32(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue)

private func beginFrameCallback(
    _ session: OpaquePointer?,
    _ header: UnsafePointer<nghttp2_frame_hd>?,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let header else { return callbackFailure }
    let delegate = NGHTTP2Session.from(userData).delegate
    let ok = delegate.session(
        beganFrame: header.pointee.type,
        flags: header.pointee.flags,
        streamID: header.pointee.stream_id,
        length: header.pointee.length
    )
    return ok ? 0 : callbackFailure
}

private func beginHeadersCallback(
    _ session: OpaquePointer?,
    _ frame: UnsafePointer<nghttp2_frame>?,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let frame else { return callbackFailure }
    let category = frame.pointee.headers.cat
    NGHTTP2Session.from(userData).delegate.session(
        beganHeadersOn: frame.pointee.hd.stream_id,
        isRequest: category == NGHTTP2_HCAT_REQUEST
    )
    return 0
}

private func headerCallback(
    _ session: OpaquePointer?,
    _ frame: UnsafePointer<nghttp2_frame>?,
    _ name: UnsafePointer<UInt8>?,
    _ nameLength: Int,
    _ value: UnsafePointer<UInt8>?,
    _ valueLength: Int,
    _ flags: UInt8,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let frame else { return callbackFailure }
    let accepted = NGHTTP2Session.from(userData).delegate.session(
        header: UnsafeRawBufferPointer(start: name, count: nameLength),
        value: UnsafeRawBufferPointer(start: value, count: valueLength),
        on: frame.pointee.hd.stream_id
    )
    return accepted ? 0 : callbackFailure
}

private func frameReceivedCallback(
    _ session: OpaquePointer?,
    _ frame: UnsafePointer<nghttp2_frame>?,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let frame else { return callbackFailure }
    let header = frame.pointee.hd
    let errorCode: UInt32 =
        switch header.type {
        case FrameType.rstStream: frame.pointee.rst_stream.error_code
        case FrameType.goAway: frame.pointee.goaway.error_code
        default: 0
        }
    var debugData = ""
    if header.type == FrameType.goAway, let opaque = frame.pointee.goaway.opaque_data {
        let count = min(frame.pointee.goaway.opaque_data_len, ReceivedFrame.maxDebugDataBytes)
        debugData = String(decoding: UnsafeBufferPointer(start: opaque, count: count), as: UTF8.self)
    }
    NGHTTP2Session.from(userData).delegate.session(
        received: ReceivedFrame(
            type: header.type, flags: header.flags, streamID: header.stream_id, errorCode: errorCode, debugData: debugData)
    )
    return 0
}

private func dataChunkCallback(
    _ session: OpaquePointer?,
    _ flags: UInt8,
    _ streamID: Int32,
    _ data: UnsafePointer<UInt8>?,
    _ length: Int,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    NGHTTP2Session.from(userData).delegate.session(
        dataChunk: UnsafeRawBufferPointer(start: data, count: length),
        on: streamID
    )
    return 0
}

private func streamClosedCallback(
    _ session: OpaquePointer?,
    _ streamID: Int32,
    _ errorCode: UInt32,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    NGHTTP2Session.from(userData).delegate.session(closed: streamID, errorCode: errorCode)
    return 0
}

private func readDataCallback(
    _ session: OpaquePointer?,
    _ streamID: Int32,
    _ buffer: UnsafeMutablePointer<UInt8>?,
    _ length: Int,
    _ dataFlags: UnsafeMutablePointer<UInt32>?,
    _ source: UnsafeMutablePointer<nghttp2_data_source>?,
    _ userData: UnsafeMutableRawPointer?
) -> Int {
    guard let dataFlags else { return Int(callbackFailure) }
    let owner = NGHTTP2Session.from(userData)
    let read = owner.delegate.session(readDataFor: streamID, into: UnsafeMutableRawBufferPointer(start: buffer, count: length))
    switch read {
    case .deferred:
        return Int(NGHTTP2_ERR_DEFERRED.rawValue)
    case .bytes(let count, let endOfData, let endStream):
        owner.dataFramesSent += 1
        if endOfData {
            dataFlags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
            if !endStream { dataFlags.pointee |= NGHTTP2_DATA_FLAG_NO_END_STREAM.rawValue }
        }
        return count
    }
}
