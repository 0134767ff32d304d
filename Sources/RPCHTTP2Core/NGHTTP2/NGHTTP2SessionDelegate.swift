/// What an nghttp2 session reports to the connection that owns it. Every call happens
/// synchronously inside `NGHTTP2Session.receive` or `NGHTTP2Session.send`, on the
/// connection's event loop.
package protocol NGHTTP2SessionDelegate: AnyObject {
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
package struct ReceivedFrame {
    package var type: UInt8
    package var flags: UInt8
    package var streamID: Int32
    /// RST_STREAM and GOAWAY: the error code.
    package var errorCode: UInt32
    /// GOAWAY: its debug data as text (lossy UTF-8), at most `maxDebugDataBytes` of it; empty otherwise.
    package var debugData: String

    /// How much of a GOAWAY's debug data is kept: the peer chooses it, and it ends up in errors.
    package static let maxDebugDataBytes = 256

    package var endStream: Bool { flags & FrameFlags.endStream != 0 }
    package var ack: Bool { flags & FrameFlags.ack != 0 }
}

/// The answer to a body read.
package enum DataRead {
    /// `count` bytes were written. `endOfData` ends the body; the stream then ends too
    /// unless `endStream` is false (trailers were submitted and will end it).
    case bytes(count: Int, endOfData: Bool, endStream: Bool)
    /// Nothing to send now; `NGHTTP2Session.resumeData` wakes the stream up.
    case deferred
}

/// HTTP/2 frame types (RFC 9113 §6).
package enum FrameType {
    package static let data: UInt8 = 0
    package static let headers: UInt8 = 1
    package static let priority: UInt8 = 2
    package static let rstStream: UInt8 = 3
    package static let settings: UInt8 = 4
    package static let ping: UInt8 = 6
    package static let goAway: UInt8 = 7
    package static let windowUpdate: UInt8 = 8
    package static let continuation: UInt8 = 9
}

/// HTTP/2 frame flags.
package enum FrameFlags {
    package static let endStream: UInt8 = 0x1
    package static let ack: UInt8 = 0x1
    package static let padded: UInt8 = 0x8
}

/// HTTP/2 error codes (RFC 9113 §7).
package enum HTTP2ErrorCode {
    package static let noError: UInt32 = 0
    package static let protocolError: UInt32 = 1
    package static let streamClosed: UInt32 = 5
    package static let refusedStream: UInt32 = 7
    package static let cancel: UInt32 = 8
    package static let enhanceYourCalm: UInt32 = 0xB
}
