import RPCCore

/// Reassembles length-prefixed messages from bytes that arrive in arbitrary pieces.
///
/// A message may span many appends and one append may hold many messages. Messages are
/// returned decompressed. Errors carry the status the call should end with.
///
/// ```swift
/// var deframer = MessageDeframer(maxMessageSize: 4 << 20, compression: .identity)
/// try deframer.append(chunk)
/// while let message = try deframer.next() { handle(message) }
/// ```
package struct MessageDeframer: Sendable {
    /// The largest payload accepted, compressed or not, in bytes (inclusive).
    package let maxMessageSize: Int
    /// The stream's `grpc-encoding`, applied to messages whose flag byte is 1.
    package let compression: CompressionAlgorithm

    private var buffer: [UInt8] = []
    private var readIndex = 0

    package init(maxMessageSize: Int, compression: CompressionAlgorithm = .identity) {
        self.maxMessageSize = maxMessageSize
        self.compression = compression
    }

    /// Bytes received but not yet returned as messages.
    package var bufferedByteCount: Int { buffer.count - readIndex }

    /// Adds received bytes. Fails early when a prefix announces an oversize message.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) throws(RPCError) {
        compactIfUseful()
        buffer.append(contentsOf: bytes)
        try checkPendingPrefix()
    }

    /// Adds received bytes. Fails early when a prefix announces an oversize message.
    package mutating func append(_ bytes: [UInt8]) throws(RPCError) {
        compactIfUseful()
        buffer.append(contentsOf: bytes)
        try checkPendingPrefix()
    }

    /// The next complete message, or `nil` when more bytes are needed.
    package mutating func next() throws(RPCError) -> [UInt8]? {
        guard let (flag, length) = pendingPrefix() else { return nil }
        try validate(flag: flag, length: length)
        let start = readIndex + FramedMessage.prefixLength
        guard buffer.count - start >= length else { return nil }
        let payload = Array(buffer[start..<start + length])
        readIndex = start + length
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
            readIndex = 0
        }
        return flag == 1 ? try Gzip.decompress(payload, limit: maxMessageSize) : payload
    }

    /// Checks that the stream did not end inside a message.
    package func checkEndOfStream() throws(RPCError) {
        let remaining = bufferedByteCount
        guard remaining > 0 else { return }
        if remaining < FramedMessage.prefixLength {
            throw RPCError(.internalError, "stream ended inside a message prefix (\(remaining) of 5 bytes)")
        }
        let length = pendingPrefix()!.length
        throw RPCError(
            .internalError,
            "stream ended inside a message (\(remaining - FramedMessage.prefixLength) of \(length) bytes)"
        )
    }

    private func pendingPrefix() -> (flag: UInt8, length: Int)? {
        guard buffer.count - readIndex >= FramedMessage.prefixLength else { return nil }
        let flag = buffer[readIndex]
        var length = 0
        for offset in 1...4 { length = length << 8 | Int(buffer[readIndex + offset]) }
        return (flag, length)
    }

    private func checkPendingPrefix() throws(RPCError) {
        if let (flag, length) = pendingPrefix() { try validate(flag: flag, length: length) }
    }

    private func validate(flag: UInt8, length: Int) throws(RPCError) {
        switch flag {
        case 0:
            break
        case 1 where compression == .identity:
            throw RPCError(.internalError, "compressed flag set but the stream has no grpc-encoding")
        case 1:
            break
        default:
            throw RPCError(.internalError, "invalid message flag byte \(flag)")
        }
        if length > maxMessageSize {
            throw RPCError(
                .resourceExhausted,
                "message of \(length) bytes is larger than the limit of \(maxMessageSize) bytes"
            )
        }
    }

    private mutating func compactIfUseful() {
        if readIndex > 0 && readIndex >= buffer.count / 2 {
            buffer.removeFirst(readIndex)
            readIndex = 0
        }
    }
}
