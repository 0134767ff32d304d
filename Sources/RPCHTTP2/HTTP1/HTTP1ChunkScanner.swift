/// Follows the framing of the HTTP/1.1 requests on a connection from their raw bytes, beside
/// swift-nio's decoder, to read the size each chunk of a chunked body declares before the
/// chunk's bytes arrive: the decoder hands on a chunk's bytes as they come and never says what
/// size it announced, so a chunk of `7fffffff` would otherwise wait for its bytes, or for the
/// request-body timeout, instead of being answered `413` at once (contract §1.1).
///
/// It reads only what frames a request: the end of each head line, `content-length` and
/// `transfer-encoding`, chunk-size lines and trailers; a body's bytes are skipped by count.
/// Bytes that the decoder refuses anyway (a bare LF, a chunk size that is not hex) stop it
/// for the rest of the connection, which the decoder then closes.
struct HTTP1ChunkScanner {
    /// The largest chunk a request may declare.
    let maxChunkSize: Int
    private var state = State.head(Head())
    /// The first bytes of the head line being read, enough for the two fields that frame a body.
    private var line: [UInt8] = []

    private enum State {
        /// In a request head (or before one).
        case head(Head)
        /// In a body of known length: this many bytes to skip.
        case body(remaining: Int)
        /// In a chunk-size line: the size so far, and whether its digits ended (an extension,
        /// or whitespace, follows).
        case chunkSize(size: Int, digits: Int, digitsEnded: Bool, sawCR: Bool)
        /// In a chunk's data: this many bytes to skip, then its CRLF.
        case chunkData(remaining: Int)
        /// After a chunk's data: its CRLF (`sawCR` once the CR came).
        case chunkEnd(sawCR: Bool)
        /// In the trailers after the last chunk: lines until an empty one.
        case trailers(lineLength: Int, sawCR: Bool)
        /// Given up: the decoder refuses what came.
        case off
    }

    /// Where a request head is: the line being read and what the head said so far.
    private struct Head {
        var lineLength = 0
        var sawCR = false
        var sawRequestLine = false
        var chunked = false
        var contentLength = 0
    }

    /// Bytes kept of a head line: `transfer-encoding:` and a value naming its codings.
    private static let keptLineBytes = 128

    init(maxChunkSize: Int) {
        self.maxChunkSize = maxChunkSize
    }

    /// Reads the next bytes of the connection; returns the size of a chunk declared over
    /// `maxChunkSize` (which stops the scanner), or `nil`.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var index = 0
        while index < bytes.count {
            switch state {
            case .off:
                return nil
            case .body(let remaining):
                let skipped = min(remaining, bytes.count - index)
                index += skipped
                state = remaining == skipped ? .head(Head()) : .body(remaining: remaining - skipped)
            case .chunkData(let remaining):
                let skipped = min(remaining, bytes.count - index)
                index += skipped
                state = remaining == skipped ? .chunkEnd(sawCR: false) : .chunkData(remaining: remaining - skipped)
            case .head(var head):
                state = read(bytes[index], into: &head)
                index += 1
            case .chunkSize(let size, let digits, let digitsEnded, let sawCR):
                let byte = bytes[index]
                index += 1
                if sawCR {
                    guard byte == lf, digits > 0 else { state = .off; continue }
                    state = size == 0 ? .trailers(lineLength: 0, sawCR: false) : .chunkData(remaining: size)
                } else if byte == cr {
                    state = .chunkSize(size: size, digits: digits, digitsEnded: digitsEnded, sawCR: true)
                } else if !digitsEnded, let digit = Self.hexDigit(byte) {
                    let grown = size * 16 + digit
                    if grown > maxChunkSize {
                        state = .off
                        return grown
                    }
                    state = .chunkSize(size: grown, digits: digits + 1, digitsEnded: false, sawCR: false)
                } else if byte == lf || digits == 0 {
                    state = .off
                } else {
                    // An extension (`;name=value`) or whitespace before one, up to the CR.
                    state = .chunkSize(size: size, digits: digits, digitsEnded: true, sawCR: false)
                }
            case .chunkEnd(let sawCR):
                let byte = bytes[index]
                index += 1
                if !sawCR {
                    state = byte == cr ? .chunkEnd(sawCR: true) : .off
                } else {
                    state = byte == lf ? .chunkSize(size: 0, digits: 0, digitsEnded: false, sawCR: false) : .off
                }
            case .trailers(let lineLength, let sawCR):
                let byte = bytes[index]
                index += 1
                if sawCR {
                    guard byte == lf else { state = .off; continue }
                    state = lineLength == 0 ? .head(Head()) : .trailers(lineLength: 0, sawCR: false)
                } else if byte == cr {
                    state = .trailers(lineLength: lineLength, sawCR: true)
                } else {
                    state = byte == lf ? .off : .trailers(lineLength: lineLength + 1, sawCR: false)
                }
            }
        }
        return nil
    }

    /// Reads one byte of a request head; returns the state after it.
    private mutating func read(_ byte: UInt8, into head: inout Head) -> State {
        if head.sawCR {
            guard byte == lf else { return .off }
            head.sawCR = false
            return endLine(of: &head)
        }
        switch byte {
        case cr:
            head.sawCR = true
        case lf:
            return .off
        default:
            if line.count < Self.keptLineBytes { line.append(byte) }
            head.lineLength += 1
        }
        return .head(head)
    }

    /// A head line ended: the head goes on, or its body begins.
    private mutating func endLine(of head: inout Head) -> State {
        let lineLength = head.lineLength
        head.lineLength = 0
        defer { line.removeAll(keepingCapacity: true) }
        if lineLength == 0 {
            // Empty lines before a request line are allowed (RFC 9112 §2.2).
            guard head.sawRequestLine else { return .head(head) }
            if head.chunked { return .chunkSize(size: 0, digits: 0, digitsEnded: false, sawCR: false) }
            return head.contentLength > 0 ? .body(remaining: head.contentLength) : .head(Head())
        }
        guard head.sawRequestLine else {
            head.sawRequestLine = true
            return .head(head)
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return .head(head) }
        let name = line[..<colon]
        if name.elementsEqual("transfer-encoding".utf8, by: Self.equalsIgnoringCase) {
            guard lineLength == line.count else { return .off }
            head.chunked = Self.contains(line[(colon + 1)...], "chunked")
        } else if name.elementsEqual("content-length".utf8, by: Self.equalsIgnoringCase) {
            guard lineLength == line.count else { return .off }
            // The decoder refuses one that does not parse, or several that differ.
            var length = 0
            for byte in line[(colon + 1)...] where byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), length < Int.max / 16 else { return .off }
                length = length * 10 + Int(byte - UInt8(ascii: "0"))
            }
            head.contentLength = length
        }
        return .head(head)
    }

    private static func hexDigit(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private static func equalsIgnoringCase(_ byte: UInt8, _ lowercase: UInt8) -> Bool {
        byte | 0x20 == lowercase
    }

    private static func contains(_ value: ArraySlice<UInt8>, _ word: String) -> Bool {
        let word = Array(word.utf8)
        guard value.count >= word.count else { return false }
        return (value.startIndex...(value.endIndex - word.count)).contains { start in
            value[start..<(start + word.count)].elementsEqual(word, by: equalsIgnoringCase)
        }
    }
}

private let cr = UInt8(ascii: "\r")
private let lf = UInt8(ascii: "\n")
