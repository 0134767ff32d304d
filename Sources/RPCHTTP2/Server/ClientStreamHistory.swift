import RPCHTTP2Core

/// What a connection remembers of the streams its client opened, to judge a HEADERS frame on
/// a stream that is not open (RFC 9113 §5.1, §5.1.1), which nghttp2 1.52 silently ignores:
/// - on an id above every one used so far, it opens a new stream;
/// - on an id the client skipped, it is a connection error PROTOCOL_ERROR (ids only grow);
/// - on a stream that ended, a connection error STREAM_CLOSED;
/// - except on a stream the server reset while the client's side was open: the client may
///   have sent the frame before it saw the reset, so it is ignored.
///
/// Memory stays small whatever the client does: skipped ranges and resets are kept for the
/// most recent ones only (older ones count as ended streams, still a connection error).
struct ClientStreamHistory {
    /// The judgement on a HEADERS frame for a stream that is not open.
    enum Verdict: Equatable {
        /// A new stream.
        case opens
        /// A frame the client may have sent before it saw the server's reset: ignore it.
        case ignored
        /// A connection error with this HTTP/2 error code.
        case violation(errorCode: UInt32, reason: String)
    }

    /// The highest stream id the client opened.
    private(set) var highestOpened: Int32 = 0
    /// Ranges of odd ids the client skipped, the most recent last.
    private var skipped: [ClosedRange<Int32>] = []
    /// Streams the server reset, the most recent at `nextReset - 1` (a ring).
    private var resets: [Int32] = []
    private var nextReset = 0

    static let rememberedSkips = 16
    static let rememberedResets = 128

    /// Judges a HEADERS frame on `streamID`, a stream the server does not have open.
    func judge(headersOn streamID: Int32) -> Verdict {
        if streamID % 2 == 0 {
            return .violation(errorCode: HTTP2ErrorCode.protocolError, reason: "HEADERS on stream \(streamID), an even id")
        }
        if streamID > highestOpened { return .opens }
        if resets.contains(streamID) { return .ignored }
        if skipped.contains(where: { $0.contains(streamID) }) {
            return .violation(
                errorCode: HTTP2ErrorCode.protocolError,
                reason: "HEADERS on stream \(streamID), below stream \(highestOpened) already opened")
        }
        return .violation(errorCode: HTTP2ErrorCode.streamClosed, reason: "HEADERS on stream \(streamID), which is closed")
    }

    /// The client opened `streamID` (higher than every id before it).
    mutating func opened(_ streamID: Int32) {
        guard streamID > highestOpened else { return }
        // Client ids are odd: the next one expected is highestOpened + 2.
        let expected = highestOpened == 0 ? 1 : highestOpened + 2
        if streamID > expected {
            if skipped.count == Self.rememberedSkips { skipped.removeFirst() }
            skipped.append(expected...(streamID - 2))
        }
        highestOpened = streamID
    }

    /// The server reset `streamID`, or it ended with an error.
    mutating func reset(_ streamID: Int32) {
        if resets.count < Self.rememberedResets {
            resets.append(streamID)
        } else {
            resets[nextReset] = streamID
        }
        nextReset = (nextReset + 1) % Self.rememberedResets
    }
}
