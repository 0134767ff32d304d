import RPCFraming

extension OutboundBody {
    /// Tells nghttp2 to read again if it was told there was nothing to send.
    package mutating func wake(streamID: Int32, session: NGHTTP2Session) {
        if takeDeferred() { session.resumeData(streamID: streamID) }
    }

    /// The answer to a read that did not end the body: the bytes, or `.deferred` when there
    /// were none (`wake` then restarts the stream).
    package mutating func answer(_ count: Int) -> DataRead {
        guard count > 0 else {
            noteDeferred()
            return .deferred
        }
        return .bytes(count: count, endOfData: false, endStream: false)
    }
}
