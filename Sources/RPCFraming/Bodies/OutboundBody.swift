import DequeModule
import RPCCore

/// A call's response body on its way out: framed messages waiting for the front end to pull
/// them (into DATA frames, for HTTP/2), and the writer held back while too many bytes wait.
/// Used on the event loop.
package struct OutboundBody {
    private var chunks = Deque<FramedMessage>()
    private var offset = 0
    /// Bytes waiting to be sent. Stored, so that a read from another module loads it where it
    /// is rather than calling a getter with a copy of the whole body.
    package private(set) var count = 0
    /// A read found nothing to send, and the front end waits to be told there is more.
    private var deferred = false
    private var parkedWriter: CheckedContinuation<Void, any Error>?

    package init() {}

    package var isEmpty: Bool { count == 0 }

    /// Queues bytes as they are (already framed).
    package mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        chunks.append(FramedMessage(framedBytes: bytes))
        count += bytes.count
    }

    /// Queues one framed message.
    package mutating func append(_ framed: FramedMessage) {
        chunks.append(framed)
        count += framed.count
    }

    /// Queues one message, framed (compressed first unless `compression` is identity);
    /// returns the framed size.
    @discardableResult
    package mutating func appendMessage(_ message: [UInt8], compression: CompressionAlgorithm) -> Int {
        let framed = FramedMessage(message, compression: compression)
        chunks.append(framed)
        count += framed.count
        return framed.count
    }

    /// Notes that a read found nothing to send.
    package mutating func noteDeferred() {
        deferred = true
    }

    /// A read began: whatever the last one found, the front end is not waiting now.
    package mutating func readStarted() {
        deferred = false
    }

    /// Whether a read found nothing since the front end was last told there was more; clears it.
    package mutating func takeDeferred() -> Bool {
        guard deferred else { return false }
        deferred = false
        return true
    }

    /// Lets `writer` go on at once while at most `highWatermark` bytes wait; otherwise holds
    /// it until reads drain the body (see `read`).
    package mutating func admit(_ writer: CheckedContinuation<Void, any Error>, highWatermark: Int) {
        if count <= highWatermark {
            writer.resume()
        } else {
            parkedWriter = writer
        }
    }

    /// Copies as many bytes as fit into `buffer` and releases a held writer once at most
    /// `lowWatermark` bytes wait; returns how many bytes were copied.
    package mutating func read(into buffer: UnsafeMutableRawBufferPointer, lowWatermark: Int) -> Int {
        var written = 0
        while written < buffer.count, let chunk = chunks.first {
            while offset < chunk.prefixCount, written < buffer.count {
                buffer[written] = chunk.prefixByte(offset)
                written += 1
                offset += 1
            }
            let start = offset - chunk.prefixCount
            let length = min(buffer.count - written, chunk.payload.count - start)
            if length > 0 {
                chunk.payload.withUnsafeBytes { source in
                    let from = UnsafeRawBufferPointer(rebasing: source[start..<start + length])
                    UnsafeMutableRawBufferPointer(rebasing: buffer[written..<written + length]).copyMemory(from: from)
                }
                written += length
                offset += length
            }
            if offset == chunk.count {
                chunks.removeFirst()
                offset = 0
            }
        }
        count -= written
        if count <= lowWatermark, let writer = parkedWriter {
            parkedWriter = nil
            writer.resume()
        }
        return written
    }

    /// Fails a held writer: its call has ended.
    package mutating func failWriter(_ error: any Error) {
        parkedWriter?.resume(throwing: error)
        parkedWriter = nil
    }

    package mutating func removeAll() {
        chunks.removeAll()
        offset = 0
        count = 0
    }
}
