/// Counts the GOAWAY frames in the bytes a server sends, skipping every payload unread.
struct FrameScanner {
    private(set) var goAways = 0
    private var header: [UInt8] = []
    private var payloadLeft = 0

    mutating func scan(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        while index < bytes.count {
            if payloadLeft > 0 {
                let skipped = min(payloadLeft, bytes.count - index)
                payloadLeft -= skipped
                index += skipped
                continue
            }
            header.append(bytes[index])
            index += 1
            if header.count == 9 {
                payloadLeft = Int(header[0]) << 16 | Int(header[1]) << 8 | Int(header[2])
                if header[3] == Frames.goAway { goAways += 1 }
                header.removeAll(keepingCapacity: true)
            }
        }
    }
}
