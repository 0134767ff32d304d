import DequeModule
import RPCCore

/// A stream's body on its way out: framed messages waiting for nghttp2 to pull them into
/// DATA frames, and the writer held back while too many bytes wait. Used on the event loop.
struct OutboundBody {
    private var chunks = Deque<FramedMessage>()
    private var offset = 0
    private var byteCount = 0
    /// nghttp2 found nothing to send and waits for `resumeData`.
    private var deferred = false
    private var parkedWriter: CheckedContinuation<Void, any Error>?

    var isEmpty: Bool { byteCount == 0 }
    /// Bytes waiting to be sent.
    var count: Int { byteCount }

    /// Queues bytes as they are (already framed).
    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        chunks.append(FramedMessage(framedBytes: bytes))
        byteCount += bytes.count
    }

    /// Queues one message, framed (compressed first unless `compression` is identity);
    /// returns the framed size.
    @discardableResult
    mutating func appendMessage(_ message: [UInt8], compression: CompressionAlgorithm) -> Int {
        let framed = FramedMessage(message, compression: compression)
        chunks.append(framed)
        byteCount += framed.count
        return framed.count
    }

    /// Tells nghttp2 to read again if it was told there was nothing to send.
    mutating func wake(streamID: Int32, session: NGHTTP2Session) {
        guard deferred else { return }
        deferred = false
        session.resumeData(streamID: streamID)
    }

    /// Lets `writer` go on at once while at most `highWatermark` bytes wait; otherwise holds
    /// it until reads drain the body (see `read`).
    mutating func admit(_ writer: CheckedContinuation<Void, any Error>, highWatermark: Int) {
        if byteCount <= highWatermark {
            writer.resume()
        } else {
            parkedWriter = writer
        }
    }

    /// Copies as many bytes as fit into `buffer` and releases a held writer once at most
    /// `lowWatermark` bytes wait; returns how many bytes were copied.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer, lowWatermark: Int) -> Int {
        var written = 0
        while written < buffer.count, let chunk = chunks.first {
            while offset < chunk.prefixCount, written < buffer.count {
                buffer[written] = chunk.prefixByte(offset)
                written += 1
                offset += 1
            }
            let start = offset - chunk.prefixCount
            let count = min(buffer.count - written, chunk.payload.count - start)
            if count > 0 {
                chunk.payload.withUnsafeBytes { source in
                    let from = UnsafeRawBufferPointer(rebasing: source[start..<start + count])
                    UnsafeMutableRawBufferPointer(rebasing: buffer[written..<written + count]).copyMemory(from: from)
                }
                written += count
                offset += count
            }
            if offset == chunk.count {
                chunks.removeFirst()
                offset = 0
            }
        }
        byteCount -= written
        if byteCount <= lowWatermark, let writer = parkedWriter {
            parkedWriter = nil
            writer.resume()
        }
        return written
    }

    /// The answer to a read that did not end the body: the bytes, or `.deferred` when there
    /// were none (`wake` then restarts the stream).
    mutating func answer(_ count: Int) -> DataRead {
        guard count > 0 else {
            deferred = true
            return .deferred
        }
        return .bytes(count: count, endOfData: false, endStream: false)
    }

    /// Fails a held writer: its call has ended.
    mutating func failWriter(_ error: any Error) {
        parkedWriter?.resume(throwing: error)
        parkedWriter = nil
    }

    mutating func removeAll() {
        chunks.removeAll()
        offset = 0
        byteCount = 0
    }
}
