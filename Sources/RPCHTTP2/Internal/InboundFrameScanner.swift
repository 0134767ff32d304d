/// Reads the header of every frame a client sends, before nghttp2 does: nghttp2 skips some
/// frames without telling the server (frames of types it does not know, DATA on streams it
/// already closed), and `AbuseGuard` must count those too.
struct InboundFrameScanner {
    /// A frame header: what the guard needs of it.
    struct Frame {
        var type: UInt8
        var flags: UInt8
        var length: Int
    }

    private static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    private static let headerSize = 9

    /// Bytes of the client's connection preface read so far.
    private var prefaceRead = 0
    /// Whether the bytes are not HTTP/2 at all (a wrong preface): nghttp2 refuses them.
    private var stopped = false
    /// Payload bytes of the current frame still to come.
    private var payloadLeft = 0
    /// The start of a frame header that the previous read cut.
    private var partialHeader: [UInt8] = []

    /// Calls `frame` with each frame header that `bytes` complete, in order, until it returns
    /// `false`; returns whether it never did.
    mutating func scan(_ bytes: UnsafeRawBufferPointer, _ frame: (Frame) -> Bool) -> Bool {
        var index = skipPreface(bytes)
        while index < bytes.count, !stopped {
            if payloadLeft > 0 {
                let skipped = min(payloadLeft, bytes.count - index)
                payloadLeft -= skipped
                index += skipped
                continue
            }
            let header: Frame
            if partialHeader.isEmpty, bytes.count - index >= Self.headerSize {
                header = Self.header(UnsafeRawBufferPointer(rebasing: bytes[index..<index + Self.headerSize]))
                index += Self.headerSize
            } else {
                let taken = min(Self.headerSize - partialHeader.count, bytes.count - index)
                partialHeader += bytes[index..<index + taken]
                index += taken
                guard partialHeader.count == Self.headerSize else { break }
                header = partialHeader.withUnsafeBytes(Self.header)
                partialHeader.removeAll(keepingCapacity: true)
            }
            payloadLeft = header.length
            guard frame(header) else { return false }
        }
        return true
    }

    /// Reads past the connection preface; returns where the frames start in `bytes`.
    private mutating func skipPreface(_ bytes: UnsafeRawBufferPointer) -> Int {
        var index = 0
        while prefaceRead < Self.preface.count, index < bytes.count, !stopped {
            if bytes[index] != Self.preface[prefaceRead] { stopped = true }
            prefaceRead += 1
            index += 1
        }
        return index
    }

    private static func header(_ bytes: UnsafeRawBufferPointer) -> Frame {
        Frame(type: bytes[3], flags: bytes[4], length: Int(bytes[0]) << 16 | Int(bytes[1]) << 8 | Int(bytes[2]))
    }
}
