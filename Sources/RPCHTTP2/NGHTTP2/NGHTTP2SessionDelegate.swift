/// What an nghttp2 session reports to the connection that owns it. Every call happens
/// synchronously inside `NGHTTP2Session.receive` or `NGHTTP2Session.send`, on the
/// connection's event loop.
protocol NGHTTP2SessionDelegate: AnyObject {
    /// A frame header arrived (CONTINUATION included); `false` tears the session down.
    func session(beganFrame type: UInt8, flags: UInt8, streamID: Int32, length: Int) -> Bool
    /// A HEADERS frame opened a header block.
    func session(beganHeadersOn streamID: Int32, isRequest: Bool)
    /// One header field; `false` ends the session (nghttp2 decodes none of the rest).
    func session(header name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, on streamID: Int32) -> Bool
    /// A whole frame arrived (for HEADERS: after its last CONTINUATION).
    func session(received frame: ReceivedFrame)
    /// Payload of a DATA frame.
    func session(dataChunk bytes: UnsafeRawBufferPointer, on streamID: Int32)
    /// The stream is gone; `errorCode` is the HTTP/2 error code (0 for a normal end).
    func session(closed streamID: Int32, errorCode: UInt32)
    /// nghttp2 wants up to `buffer.count` bytes of the stream's body.
    func session(readDataFor streamID: Int32, into buffer: UnsafeMutableRawBufferPointer) -> DataRead
}

/// The parts of a received frame the connections act on.
struct ReceivedFrame {
    var type: UInt8
    var flags: UInt8
    var streamID: Int32
    /// RST_STREAM and GOAWAY: the error code.
    var errorCode: UInt32
    /// GOAWAY: its debug data as text (lossy UTF-8), at most `maxDebugDataBytes` of it; empty otherwise.
    var debugData: String

    /// How much of a GOAWAY's debug data is kept: the peer chooses it, and it ends up in errors.
    static let maxDebugDataBytes = 256

    var endStream: Bool { flags & FrameFlags.endStream != 0 }
    var ack: Bool { flags & FrameFlags.ack != 0 }
}

/// The answer to a body read.
enum DataRead {
    /// `count` bytes were written. `endOfData` ends the body; the stream then ends too
    /// unless `endStream` is false (trailers were submitted and will end it).
    case bytes(count: Int, endOfData: Bool, endStream: Bool)
    /// Nothing to send now; `NGHTTP2Session.resumeData` wakes the stream up.
    case deferred
}

/// HTTP/2 frame types (RFC 9113 §6).
enum FrameType {
    static let data: UInt8 = 0
    static let headers: UInt8 = 1
    static let priority: UInt8 = 2
    static let rstStream: UInt8 = 3
    static let settings: UInt8 = 4
    static let ping: UInt8 = 6
    static let goAway: UInt8 = 7
    static let windowUpdate: UInt8 = 8
    static let continuation: UInt8 = 9
}

/// HTTP/2 frame flags.
enum FrameFlags {
    static let endStream: UInt8 = 0x1
    static let ack: UInt8 = 0x1
    static let padded: UInt8 = 0x8
}

/// HTTP/2 error codes (RFC 9113 §7).
enum HTTP2ErrorCode {
    static let noError: UInt32 = 0
    static let protocolError: UInt32 = 1
    static let streamClosed: UInt32 = 5
    static let refusedStream: UInt32 = 7
    static let cancel: UInt32 = 8
    static let enhanceYourCalm: UInt32 = 0xB
}
