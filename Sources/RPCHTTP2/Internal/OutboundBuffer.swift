import DequeModule

/// Framed messages waiting for nghttp2 to pull them into DATA frames.
struct OutboundBuffer {
    private var chunks = Deque<[UInt8]>()
    private var offset = 0
    private(set) var byteCount = 0

    var isEmpty: Bool { byteCount == 0 }

    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        chunks.append(bytes)
        byteCount += bytes.count
    }

    /// Copies as many bytes as fit into `buffer`; returns how many.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var written = 0
        while written < buffer.count, let chunk = chunks.first {
            let count = min(buffer.count - written, chunk.count - offset)
            chunk.withUnsafeBytes { source in
                let from = UnsafeRawBufferPointer(rebasing: source[offset..<offset + count])
                UnsafeMutableRawBufferPointer(rebasing: buffer[written..<written + count]).copyMemory(from: from)
            }
            written += count
            offset += count
            if offset == chunk.count {
                chunks.removeFirst()
                offset = 0
            }
        }
        byteCount -= written
        return written
    }

    mutating func removeAll() {
        chunks.removeAll()
        offset = 0
        byteCount = 0
    }
}
