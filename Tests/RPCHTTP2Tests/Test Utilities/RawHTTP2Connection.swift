// A deliberately dumb HTTP/2 (h2c, prior knowledge) client for abuse tests.
//
// It uses plain blocking POSIX sockets (no NIO, no nghttp2) so that tests can
// send malformed, out-of-order or abusive frames that a real HTTP/2 stack would
// refuse to produce. It does not implement any HTTP/2 state machine: no flow
// control, no automatic SETTINGS/PING acknowledgement, no HPACK decoding.
// Tests inspect frame types, flags, stream ids, GOAWAY and RST_STREAM codes.
//
// An instance is meant to be created and used from a single task.

import Glibc
import HTTP2TestSupport

// MARK: - Error codes

/// HTTP/2 error codes (RFC 9113, section 7).
enum HTTP2ErrorCode {
    static let noError: UInt32 = 0x0
    static let protocolError: UInt32 = 0x1
    static let internalError: UInt32 = 0x2
    static let flowControlError: UInt32 = 0x3
    static let settingsTimeout: UInt32 = 0x4
    static let streamClosed: UInt32 = 0x5
    static let frameSizeError: UInt32 = 0x6
    static let refusedStream: UInt32 = 0x7
    static let cancel: UInt32 = 0x8
    static let compressionError: UInt32 = 0x9
    static let connectError: UInt32 = 0xa
    static let enhanceYourCalm: UInt32 = 0xb
    static let inadequateSecurity: UInt32 = 0xc
    static let http11Required: UInt32 = 0xd

    /// A readable name for diagnostics, e.g. "PROTOCOL_ERROR (0x1)".
    static func name(_ code: UInt32) -> String {
        let names = [
            "NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR",
            "SETTINGS_TIMEOUT", "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM",
            "CANCEL", "COMPRESSION_ERROR", "CONNECT_ERROR", "ENHANCE_YOUR_CALM",
            "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED",
        ]
        let hex = "0x" + String(code, radix: 16)
        return code < names.count ? "\(names[Int(code)]) (\(hex))" : "UNKNOWN (\(hex))"
    }
}

/// SETTINGS parameter identifiers (RFC 9113, section 6.5.2).
enum HTTP2SettingID {
    static let headerTableSize: UInt16 = 0x1
    static let enablePush: UInt16 = 0x2
    static let maxConcurrentStreams: UInt16 = 0x3
    static let initialWindowSize: UInt16 = 0x4
    static let maxFrameSize: UInt16 = 0x5
    static let maxHeaderListSize: UInt16 = 0x6
}

// MARK: - Frames

/// An HTTP/2 frame type. A struct rather than an enum so unknown types can be sent and received.
struct FrameType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    var rawValue: UInt8
    init(rawValue: UInt8) { self.rawValue = rawValue }

    static let data = FrameType(rawValue: 0x0)
    static let headers = FrameType(rawValue: 0x1)
    static let priority = FrameType(rawValue: 0x2)
    static let rstStream = FrameType(rawValue: 0x3)
    static let settings = FrameType(rawValue: 0x4)
    static let pushPromise = FrameType(rawValue: 0x5)
    static let ping = FrameType(rawValue: 0x6)
    static let goAway = FrameType(rawValue: 0x7)
    static let windowUpdate = FrameType(rawValue: 0x8)
    static let continuation = FrameType(rawValue: 0x9)

    var description: String {
        switch self {
        case .data: "DATA"
        case .headers: "HEADERS"
        case .priority: "PRIORITY"
        case .rstStream: "RST_STREAM"
        case .settings: "SETTINGS"
        case .pushPromise: "PUSH_PROMISE"
        case .ping: "PING"
        case .goAway: "GOAWAY"
        case .windowUpdate: "WINDOW_UPDATE"
        case .continuation: "CONTINUATION"
        default: "UNKNOWN(0x\(String(rawValue, radix: 16)))"
        }
    }
}

/// HTTP/2 frame flags (RFC 9113, section 6).
enum FrameFlags {
    /// END_STREAM on DATA/HEADERS; ACK on SETTINGS/PING (both are 0x1).
    static let endStream: UInt8 = 0x1
    static let ack: UInt8 = 0x1
    static let endHeaders: UInt8 = 0x4
    static let padded: UInt8 = 0x8
    static let priority: UInt8 = 0x20
}

/// One HTTP/2 frame as it appears on the wire (header fields + raw payload).
struct Frame: Hashable, Sendable, CustomStringConvertible {
    var type: FrameType
    var flags: UInt8
    /// The stream identifier. When read from the wire the reserved bit is cleared.
    var streamID: UInt32
    var payload: [UInt8]

    init(type: FrameType, flags: UInt8 = 0, streamID: UInt32 = 0, payload: [UInt8] = []) {
        self.type = type
        self.flags = flags
        self.streamID = streamID
        self.payload = payload
    }

    /// The error code of a GOAWAY frame (nil for other frames or a truncated payload).
    var goAwayErrorCode: UInt32? {
        guard type == .goAway, payload.count >= 8 else { return nil }
        return Frame.readUInt32(payload, at: 4)
    }

    /// The last stream id of a GOAWAY frame (nil for other frames or a truncated payload).
    var goAwayLastStreamID: UInt32? {
        guard type == .goAway, payload.count >= 8 else { return nil }
        return Frame.readUInt32(payload, at: 0) & 0x7FFF_FFFF
    }

    /// The additional debug data of a GOAWAY frame, decoded as (lossy) UTF-8.
    var goAwayDebugData: String? {
        guard type == .goAway, payload.count >= 8 else { return nil }
        return String(decoding: payload[8...], as: UTF8.self)
    }

    /// The error code of a RST_STREAM frame (nil for other frames or a truncated payload).
    var rstStreamErrorCode: UInt32? {
        guard type == .rstStream, payload.count >= 4 else { return nil }
        return Frame.readUInt32(payload, at: 0)
    }

    /// The opaque data of a PING frame (nil for other frames or a wrongly sized payload).
    var pingPayload: UInt64? {
        guard type == .ping, payload.count == 8 else { return nil }
        return payload.reduce(UInt64(0)) { ($0 << 8) | UInt64($1) }
    }

    /// The window size increment of a WINDOW_UPDATE frame (reserved bit cleared).
    var windowUpdateIncrement: UInt32? {
        guard type == .windowUpdate, payload.count >= 4 else { return nil }
        return Frame.readUInt32(payload, at: 0) & 0x7FFF_FFFF
    }

    /// The parameters of a SETTINGS frame (nil for other frames or a payload that is not a multiple of 6).
    var settingsParameters: [(id: UInt16, value: UInt32)]? {
        guard type == .settings, payload.count % 6 == 0 else { return nil }
        return stride(from: 0, to: payload.count, by: 6).map { offset in
            (id: UInt16(payload[offset]) << 8 | UInt16(payload[offset + 1]),
             value: Frame.readUInt32(payload, at: offset + 2))
        }
    }

    /// END_STREAM is set on a DATA or HEADERS frame.
    var isEndStream: Bool {
        (type == .data || type == .headers) && flags & FrameFlags.endStream != 0
    }

    /// END_HEADERS is set on a HEADERS, PUSH_PROMISE or CONTINUATION frame.
    var isEndHeaders: Bool {
        (type == .headers || type == .pushPromise || type == .continuation) && flags & FrameFlags.endHeaders != 0
    }

    /// ACK is set on a SETTINGS or PING frame.
    var isAck: Bool {
        (type == .settings || type == .ping) && flags & FrameFlags.ack != 0
    }

    var description: String {
        var text = "\(type) stream=\(streamID) flags=0x\(String(flags, radix: 16)) length=\(payload.count)"
        if let code = goAwayErrorCode, let last = goAwayLastStreamID {
            text += " lastStreamID=\(last) error=\(HTTP2ErrorCode.name(code))"
            if let debug = goAwayDebugData, !debug.isEmpty { text += " debug=\"\(debug)\"" }
        }
        if let code = rstStreamErrorCode { text += " error=\(HTTP2ErrorCode.name(code))" }
        return text
    }

    /// The wire encoding: 9-byte header (24-bit length, type, flags, 32-bit stream id as given) + payload.
    /// The stream id is written as is, so a caller can deliberately set the reserved bit.
    var encoded: [UInt8] {
        precondition(payload.count <= 0xFF_FFFF, "HTTP/2 frame payload cannot exceed 2^24-1 bytes")
        let length = UInt32(payload.count)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(9 + payload.count)
        bytes.append(UInt8(truncatingIfNeeded: length >> 16))
        bytes.append(UInt8(truncatingIfNeeded: length >> 8))
        bytes.append(UInt8(truncatingIfNeeded: length))
        bytes.append(type.rawValue)
        bytes.append(flags)
        Frame.appendUInt32(streamID, to: &bytes)
        bytes.append(contentsOf: payload)
        return bytes
    }

    static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16
            | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    static func appendUInt32(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 24))
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }
}

// MARK: - Errors

enum RawHTTP2Error: Error, CustomStringConvertible {
    /// A system call failed with `errno`.
    case systemCall(String, errno: Int32)
    /// The peer closed or reset the connection while we were sending (EPIPE / ECONNRESET).
    case peerClosed(operation: String, errno: Int32)
    /// Nothing (or not the expected frame) arrived before the read timeout expired.
    case timedOut(waitingFor: String, after: Duration, received: [Frame])
    /// A send blocked for longer than the timeout (the peer stopped reading).
    case sendTimedOut(after: Duration)
    /// The connection was already closed locally.
    case notConnected
    case invalidArgument(String)

    var description: String {
        switch self {
        case .systemCall(let call, let code):
            "\(call) failed: \(RawHTTP2Error.errnoDescription(code))"
        case .peerClosed(let operation, let code):
            "peer closed the connection during \(operation): \(RawHTTP2Error.errnoDescription(code))"
        case .timedOut(let waitingFor, let timeout, let received):
            "timed out after \(timeout) waiting for \(waitingFor); frames received meanwhile: "
                + (received.isEmpty ? "none" : received.map(\.description).joined(separator: ", "))
        case .sendTimedOut(let timeout):
            "send blocked for more than \(timeout) (the peer is not reading)"
        case .notConnected:
            "the connection is closed"
        case .invalidArgument(let message):
            "invalid argument: \(message)"
        }
    }

    static func errnoDescription(_ code: Int32) -> String {
        "\(String(cString: strerror(code))) (errno \(code))"
    }
}

// MARK: - Connection

final class RawHTTP2Connection {
    static let clientPreface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    let port: Int
    let readTimeout: Duration
    /// Every frame read so far, in order (including frames skipped by `readUntil`).
    private(set) var receivedFrames: [Frame] = []

    private var fd: Int32
    private var buffer: [UInt8] = []
    private var peerClosed = false

    /// Connects a TCP socket to 127.0.0.1:`port` (blocking connect), from `sourceAddress` (an IPv4
    /// address such as `127.0.0.2`) when given. Reads time out after `readTimeout` (SO_RCVTIMEO);
    /// sends blocked for longer than `readTimeout` time out too (SO_SNDTIMEO).
    init(port: Int, readTimeout: Duration = .seconds(5), sourceAddress: String? = nil) throws {
        guard (1...65535).contains(port) else { throw RawHTTP2Error.invalidArgument("port \(port)") }
        guard readTimeout > .zero else { throw RawHTTP2Error.invalidArgument("readTimeout \(readTimeout)") }
        self.port = port
        self.readTimeout = readTimeout

        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw RawHTTP2Error.systemCall("socket", errno: errno) }
        self.fd = fd
        do {
            try Self.setTimeout(fd, option: SO_RCVTIMEO, readTimeout)
            try Self.setTimeout(fd, option: SO_SNDTIMEO, readTimeout)
            var one: Int32 = 1
            if setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size)) != 0 {
                throw RawHTTP2Error.systemCall("setsockopt(TCP_NODELAY)", errno: errno)
            }
            if let sourceAddress { try Self.bind(fd, to: sourceAddress) }
            try Self.connectToLoopback(fd, port: port)
        } catch {
            Glibc.close(fd)
            self.fd = -1
            throw error
        }
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Closes the socket. Idempotent.
    func close() {
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }

    // MARK: Sending

    /// Sends the client connection preface followed by an empty SETTINGS frame.
    func sendPreface() throws {
        try sendRaw(Self.clientPreface + Frame(type: .settings).encoded)
    }

    /// Sends raw bytes as they are. Throws `RawHTTP2Error.peerClosed` on EPIPE/ECONNRESET (no SIGPIPE).
    func sendRaw(_ bytes: [UInt8]) throws {
        guard fd >= 0 else { throw RawHTTP2Error.notConnected }
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent >= 0 {
                offset += sent
                continue
            }
            let code = errno
            switch code {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                throw RawHTTP2Error.sendTimedOut(after: readTimeout)
            case EPIPE, ECONNRESET:
                throw RawHTTP2Error.peerClosed(operation: "send", errno: code)
            default:
                throw RawHTTP2Error.systemCall("send", errno: code)
            }
        }
    }

    /// Sends one arbitrary frame (any type, flags and stream id, including the reserved bit).
    func sendFrame(type: FrameType, flags: UInt8 = 0, streamID: UInt32 = 0, payload: [UInt8] = []) throws {
        try sendRaw(Frame(type: type, flags: flags, streamID: streamID, payload: payload).encoded)
    }

    /// Sends a SETTINGS frame on stream 0. The parameters are sent even when `ack` is true.
    func sendSettings(_ settings: [(id: UInt16, value: UInt32)] = [], ack: Bool = false) throws {
        var payload: [UInt8] = []
        for setting in settings {
            payload.append(UInt8(truncatingIfNeeded: setting.id >> 8))
            payload.append(UInt8(truncatingIfNeeded: setting.id))
            Frame.appendUInt32(setting.value, to: &payload)
        }
        try sendFrame(type: .settings, flags: ack ? FrameFlags.ack : 0, payload: payload)
    }

    /// Sends a PING frame on stream 0 with an 8-byte big-endian payload.
    func sendPing(_ payload: UInt64 = 0, ack: Bool = false) throws {
        let bytes = (0..<8).map { UInt8(truncatingIfNeeded: payload >> (56 - 8 * UInt64($0))) }
        try sendFrame(type: .ping, flags: ack ? FrameFlags.ack : 0, payload: bytes)
    }

    /// Sends a HEADERS frame whose header block is `hpackLiteral(headers)`.
    func sendHeaders(streamID: UInt32, headers: [(String, String)], endStream: Bool, endHeaders: Bool = true) throws {
        try sendHeaders(
            streamID: streamID, headerBlockFragment: Self.hpackLiteral(headers),
            endStream: endStream, endHeaders: endHeaders)
    }

    /// Sends a HEADERS frame with an already encoded (possibly partial or invalid) header block fragment.
    func sendHeaders(streamID: UInt32, headerBlockFragment: [UInt8], endStream: Bool, endHeaders: Bool = true) throws {
        var flags: UInt8 = 0
        if endStream { flags |= FrameFlags.endStream }
        if endHeaders { flags |= FrameFlags.endHeaders }
        try sendFrame(type: .headers, flags: flags, streamID: streamID, payload: headerBlockFragment)
    }

    func sendContinuation(streamID: UInt32, headerBlockFragment: [UInt8], endHeaders: Bool) throws {
        try sendFrame(
            type: .continuation, flags: endHeaders ? FrameFlags.endHeaders : 0,
            streamID: streamID, payload: headerBlockFragment)
    }

    func sendData(streamID: UInt32, _ payload: [UInt8], endStream: Bool) throws {
        try sendFrame(type: .data, flags: endStream ? FrameFlags.endStream : 0, streamID: streamID, payload: payload)
    }

    func sendRSTStream(streamID: UInt32, errorCode: UInt32) throws {
        var payload: [UInt8] = []
        Frame.appendUInt32(errorCode, to: &payload)
        try sendFrame(type: .rstStream, streamID: streamID, payload: payload)
    }

    /// Sends a WINDOW_UPDATE frame. The increment is written as is (0 or the reserved bit are allowed).
    func sendWindowUpdate(streamID: UInt32, increment: UInt32) throws {
        var payload: [UInt8] = []
        Frame.appendUInt32(increment, to: &payload)
        try sendFrame(type: .windowUpdate, streamID: streamID, payload: payload)
    }

    /// Sends a GOAWAY frame on stream 0.
    func sendGoAway(lastStreamID: UInt32, errorCode: UInt32, debugData: [UInt8] = []) throws {
        var payload: [UInt8] = []
        Frame.appendUInt32(lastStreamID, to: &payload)
        Frame.appendUInt32(errorCode, to: &payload)
        payload.append(contentsOf: debugData)
        try sendFrame(type: .goAway, payload: payload)
    }

    // MARK: Receiving

    /// Reads the next frame. Returns nil when the peer closed the connection (EOF, or ECONNRESET), including
    /// when it closed in the middle of a frame. Throws `RawHTTP2Error.timedOut` after `readTimeout`.
    func readFrame() throws -> Frame? {
        try readFrame(deadline: .now + readTimeout, waitingFor: "a frame", received: [])
    }

    /// Reads frames until one matches `predicate` and returns it. Returns nil if the peer closes the
    /// connection first; throws `RawHTTP2Error.timedOut` if no matching frame arrives within `readTimeout`
    /// (an overall deadline, not per frame).
    func readUntil(_ predicate: (Frame) -> Bool) throws -> Frame? {
        let deadline = ContinuousClock.now + readTimeout
        var skipped: [Frame] = []
        while let frame = try readFrame(deadline: deadline, waitingFor: "a matching frame", received: skipped) {
            if predicate(frame) { return frame }
            skipped.append(frame)
        }
        return nil
    }

    /// Reads until the peer closes the connection and returns every frame seen (GOAWAY included).
    /// Throws `RawHTTP2Error.timedOut` if the connection is still open after `readTimeout`.
    func readUntilClosed() throws -> [Frame] {
        let deadline = ContinuousClock.now + readTimeout
        var frames: [Frame] = []
        while let frame = try readFrame(deadline: deadline, waitingFor: "the peer to close", received: frames) {
            frames.append(frame)
        }
        return frames
    }

    /// Reads until the peer closes the connection and returns its bytes as they are (an
    /// HTTP/1.1 answer, say). Throws `RawHTTP2Error.timedOut` if it is still open after `readTimeout`.
    func readRawUntilClosed() throws -> [UInt8] {
        let deadline = ContinuousClock.now + readTimeout
        while try fill(atLeast: buffer.count + 1, deadline: deadline, waitingFor: "the peer to close", received: []) {}
        defer { buffer.removeAll() }
        return buffer
    }

    private func readFrame(deadline: ContinuousClock.Instant, waitingFor: String, received: [Frame]) throws -> Frame? {
        guard try fill(atLeast: 9, deadline: deadline, waitingFor: waitingFor, received: received) else { return nil }
        let length = Int(buffer[0]) << 16 | Int(buffer[1]) << 8 | Int(buffer[2])
        guard try fill(atLeast: 9 + length, deadline: deadline, waitingFor: waitingFor, received: received) else {
            return nil
        }
        let frame = Frame(
            type: FrameType(rawValue: buffer[3]),
            flags: buffer[4],
            streamID: Frame.readUInt32(buffer, at: 5) & 0x7FFF_FFFF,
            payload: Array(buffer[9..<(9 + length)]))
        buffer.removeFirst(9 + length)
        receivedFrames.append(frame)
        return frame
    }

    /// Receives until `buffer` holds at least `count` bytes. Returns false if the peer closed first.
    private func fill(atLeast count: Int, deadline: ContinuousClock.Instant, waitingFor: String, received: [Frame])
        throws -> Bool
    {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while buffer.count < count {
            if peerClosed { return false }
            guard fd >= 0 else { throw RawHTTP2Error.notConnected }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else {
                throw RawHTTP2Error.timedOut(waitingFor: waitingFor, after: readTimeout, received: received)
            }
            try Self.setTimeout(fd, option: SO_RCVTIMEO, remaining)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
            } else if n == 0 {
                peerClosed = true
            } else {
                let code = errno
                switch code {
                case EINTR:
                    continue
                case EAGAIN, EWOULDBLOCK:
                    throw RawHTTP2Error.timedOut(waitingFor: waitingFor, after: readTimeout, received: received)
                case ECONNRESET:
                    peerClosed = true
                default:
                    throw RawHTTP2Error.systemCall("recv", errno: code)
                }
            }
        }
        return true
    }

    // MARK: HPACK (encoding only)

    /// Encodes `headers` as HPACK "Literal Header Field without Indexing — New Name" representations
    /// (RFC 7541, 6.2.2), with non-Huffman string literals. Names are sent as given (not lowercased).
    static func hpackLiteral(_ headers: [(String, String)]) -> [UInt8] {
        var block: [UInt8] = []
        for (name, value) in headers {
            block.append(0x00)
            block.append(contentsOf: hpackString(name))
            block.append(contentsOf: hpackString(value))
        }
        return block
    }

    /// An HPACK string literal (RFC 7541, 5.2) with the H bit cleared.
    static func hpackString(_ string: String) -> [UInt8] {
        let bytes = Array(string.utf8)
        return hpackInteger(bytes.count, prefixBits: 7) + bytes
    }

    /// An HPACK integer (RFC 7541, 5.1) with an N-bit prefix; `flags` fills the bits above the prefix.
    static func hpackInteger(_ value: Int, prefixBits: Int, flags: UInt8 = 0) -> [UInt8] {
        precondition((1...8).contains(prefixBits) && value >= 0)
        let maxPrefix = (1 << prefixBits) - 1
        if value < maxPrefix { return [flags | UInt8(value)] }
        var bytes = [flags | UInt8(maxPrefix)]
        var rest = value - maxPrefix
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
        return bytes
    }

    /// The request headers of a gRPC call (POST over http to localhost).
    static func grpcRequestHeaders(path: String, contentType: String = "application/grpc") -> [(String, String)] {
        [
            (":method", "POST"),
            (":scheme", "http"),
            (":path", path),
            (":authority", "localhost"),
            ("content-type", contentType),
            ("te", "trailers"),
        ]
    }

    // MARK: Socket helpers

    private static func setTimeout(_ fd: Int32, option: Int32, _ duration: Duration) throws {
        let (seconds, attoseconds) = duration.components
        var micros = attoseconds / 1_000_000_000_000
        // A zero timeval means "block forever": never set that.
        if seconds == 0 && micros == 0 { micros = 1 }
        var tv = timeval(tv_sec: Int(seconds), tv_usec: Int(micros))
        if setsockopt(fd, SOL_SOCKET, option, &tv, socklen_t(MemoryLayout<timeval>.size)) != 0 {
            throw RawHTTP2Error.systemCall("setsockopt(\(option == SO_RCVTIMEO ? "SO_RCVTIMEO" : "SO_SNDTIMEO"))", errno: errno)
        }
    }

    /// Binds the socket to `address` (IPv4, any port).
    private static func bind(_ fd: Int32, to address: String) throws {
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        guard inet_pton(AF_INET, address, &local.sin_addr) == 1 else {
            throw RawHTTP2Error.invalidArgument("source address \(address)")
        }
        let result = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if result != 0 { throw RawHTTP2Error.systemCall("bind to \(address)", errno: errno) }
    }

    private static func connectToLoopback(_ fd: Int32, port: Int) throws {
        var address = loopbackAddress(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result == 0 { return }
        let code = errno
        guard code == EINTR else { throw RawHTTP2Error.systemCall("connect to 127.0.0.1:\(port)", errno: code) }
        // An interrupted blocking connect keeps going asynchronously: wait for it, then fetch its outcome.
        var pollFD = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        while poll(&pollFD, 1, -1) < 0 {
            guard errno == EINTR else { throw RawHTTP2Error.systemCall("poll", errno: errno) }
        }
        var socketError: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &socketError, &length) == 0 else {
            throw RawHTTP2Error.systemCall("getsockopt(SO_ERROR)", errno: errno)
        }
        if socketError != 0 {
            throw RawHTTP2Error.systemCall("connect to 127.0.0.1:\(port)", errno: socketError)
        }
    }
}
