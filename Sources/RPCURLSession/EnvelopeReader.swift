import RPCCore

/// Cuts Connect envelopes out of a streamed body as its bytes arrive in pieces of any size: a
/// flag byte, a 4-byte big-endian length, then that many bytes.
struct EnvelopeReader: Sendable {
    /// One envelope.
    struct Envelope: Sendable, Equatable {
        /// `0x01`: compressed; `0x02`: the end-of-stream message.
        var flags: UInt8
        var payload: [UInt8]

        var isEndOfStream: Bool { flags & 0x02 != 0 }
        var isCompressed: Bool { flags & 0x01 != 0 }
    }

    /// The largest payload accepted; a longer one is RESOURCE_EXHAUSTED.
    let maxPayloadSize: Int
    private var buffer: [UInt8] = []
    /// Where the unread bytes of `buffer` start.
    private var start = 0

    init(maxPayloadSize: Int) {
        self.maxPayloadSize = maxPayloadSize
    }

    /// Whether bytes of an envelope not yet whole are held.
    var holdsPartialEnvelope: Bool { start < buffer.count }

    /// Adds bytes received.
    mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 0 && start * 2 >= buffer.count {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole envelope, or `nil` until more bytes arrive.
    mutating func next() throws(RPCError) -> Envelope? {
        guard buffer.count - start >= 5 else { return nil }
        let length = buffer[start + 1 ..< start + 5].reduce(0) { $0 << 8 | Int($1) }
        guard length <= maxPayloadSize else {
            throw RPCError(.resourceExhausted, "a response message of \(length) bytes is over the limit of \(maxPayloadSize)")
        }
        guard buffer.count - start - 5 >= length else { return nil }
        let flags = buffer[start]
        let payload = Array(buffer[start + 5 ..< start + 5 + length])
        start += 5 + length
        return Envelope(flags: flags, payload: payload)
    }

    /// `payload` in an envelope with `flags`.
    static func envelope(_ payload: [UInt8], flags: UInt8 = 0) -> [UInt8] {
        let length = UInt32(payload.count)
        var bytes: [UInt8] = [flags, UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        bytes.append(contentsOf: payload)
        return bytes
    }
}
