import RPCCore

/// A call's received body: reassembles messages as the call's protocol frames them, hands them
/// to their reader, and withholds flow-control credit while the reader lags. Used on the event
/// loop.
package struct InboundBody {
    /// How the request's messages are framed.
    package enum Shape {
        /// Enveloped messages (gRPC, gRPC-Web, Connect streaming).
        case envelopes
        /// Enveloped messages in base64 (gRPC-Web text).
        case base64Envelopes
        /// The whole body is the one message (Connect unary), compressed with `compression`.
        case wholeBody(CompressionAlgorithm)
    }

    private var deframer: MessageDeframer
    private let shape: Shape
    /// Base64 characters of an incomplete group (gRPC-Web text).
    private var pendingText: [UInt8] = []
    /// A Connect unary body as it arrives.
    private var body: [UInt8] = []
    private let maxMessageSize: Int
    private var withheldBytes = 0
    /// Unread messages pile up: credit is withheld until the reader catches up.
    private var readerIsBehind = false
    /// Messages delivered so far.
    package private(set) var messageCount = 0

    /// Bytes received but not yet made into messages. Stored, so that a read from another module
    /// loads it where it is rather than calling a getter with a copy of the whole body.
    package private(set) var bufferedByteCount = 0

    package init(_ shape: Shape, maxMessageSize: Int, compression: CompressionAlgorithm) {
        self.shape = shape
        self.maxMessageSize = maxMessageSize
        self.deframer = MessageDeframer(maxMessageSize: maxMessageSize, compression: compression)
    }

    /// Takes body bytes and `deliver`s the messages they complete; returns the credit to give
    /// back now (none while unread messages pile up: `deliver` returns whether they do).
    /// Throws the status the call ends with.
    package mutating func receive(_ bytes: UnsafeRawBufferPointer, deliver: ([UInt8]) -> Bool) throws(RPCError) -> Int {
        defer { recount() }
        switch shape {
        case .envelopes:
            try deframer.append(bytes)
        case .base64Envelopes:
            try deframer.append(try decodeText(bytes))
        case .wholeBody:
            guard body.count + bytes.count <= maxMessageSize else { throw Self.tooLarge(body.count + bytes.count, maxMessageSize) }
            body.append(contentsOf: bytes)
            return bytes.count
        }
        while let message = try deframer.next() {
            messageCount += 1
            if deliver(message) { readerIsBehind = true }
        }
        // Once the reader is behind, every byte is withheld until it catches up, those of a
        // message still arriving too: a message larger than a frame would otherwise be
        // credited frame by frame.
        guard readerIsBehind else { return bytes.count }
        withheldBytes += bytes.count
        return 0
    }

    /// Takes a whole-body message that came without a body (Connect's GET form).
    package mutating func preload(_ message: [UInt8]) {
        body = message
        recount()
    }

    /// Credit withheld while the reader was behind; called once it caught up.
    package mutating func takeWithheldBytes() -> Int {
        defer { withheldBytes = 0 }
        readerIsBehind = false
        return withheldBytes
    }

    /// The body ended: checks that it did not end inside a message, and delivers a whole-body message.
    package mutating func end(deliver: ([UInt8]) -> Bool) throws(RPCError) {
        defer { recount() }
        switch shape {
        case .envelopes, .base64Envelopes:
            if !pendingText.isEmpty {
                throw RPCError(.invalidArgument, "the request body ended inside a base64 group")
            }
            try deframer.checkEndOfStream()
        case .wholeBody(let compression):
            var message = body
            body = []
            if compression == .gzip { message = try Gzip.decompress(message, limit: maxMessageSize) }
            messageCount += 1
            _ = deliver(message)
        }
    }

    private mutating func recount() {
        bufferedByteCount = deframer.bufferedByteCount + pendingText.count + body.count
    }

    /// The bytes that complete groups of four base64 characters, decoded.
    private mutating func decodeText(_ bytes: UnsafeRawBufferPointer) throws(RPCError) -> [UInt8] {
        pendingText.append(contentsOf: bytes.lazy.filter { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") })
        let whole = pendingText.count / 4 * 4
        guard whole > 0 else { return [] }
        var decoded = [UInt8]()
        decoded.reserveCapacity(whole / 4 * 3)
        for start in stride(from: 0, to: whole, by: 4) {
            guard let group = Base64.decode(String(decoding: pendingText[start..<start + 4], as: UTF8.self)) else {
                throw RPCError(.invalidArgument, "the request body is not base64 (gRPC-Web text)")
            }
            decoded.append(contentsOf: group)
        }
        pendingText.removeFirst(whole)
        return decoded
    }

    private static func tooLarge(_ size: Int, _ limit: Int) -> RPCError {
        RPCError(.resourceExhausted, "message of \(size) bytes or more is larger than the limit of \(limit) bytes")
    }
}
