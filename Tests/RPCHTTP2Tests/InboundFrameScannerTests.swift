import Testing

@testable import RPCHTTP2

@Suite("InboundFrameScanner: every frame header a client sends, however its bytes are cut")
struct InboundFrameScannerTests {
    /// Frames of every kind the scanner must step over: empty, small, a full 16 KiB DATA
    /// frame, and an unknown type.
    static let frames: [(type: UInt8, flags: UInt8, length: Int)] = [
        (4, 0, 0), (4, 1, 0), (1, 4, 23), (0, 0, 0), (0, 8, 4), (0, 1, 16_384), (2, 0, 5), (8, 0, 4),
        (0xFA, 0, 3), (6, 0, 8), (9, 4, 300), (0, 1, 7),
    ]

    static var stream: [UInt8] {
        Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + frames.flatMap { frame in
            [UInt8(frame.length >> 16), UInt8(truncatingIfNeeded: frame.length >> 8), UInt8(truncatingIfNeeded: frame.length),
             frame.type, frame.flags, 0, 0, 0, 1] + [UInt8](repeating: 0xAB, count: frame.length)
        }
    }

    @Test("the preface and then each frame header, read whole, byte by byte and in pieces of 2 to 20 000 bytes")
    func everyCut() {
        let bytes = Self.stream
        for pieceSize in [bytes.count, 1, 2, 3, 8, 9, 10, 17, 1000, 20_000] {
            var scanner = InboundFrameScanner()
            var seen: [InboundFrameScanner.Frame] = []
            for start in stride(from: 0, to: bytes.count, by: pieceSize) {
                let piece = Array(bytes[start..<min(start + pieceSize, bytes.count)])
                #expect(piece.withUnsafeBytes { scanner.scan($0) { seen.append($0); return true } })
            }
            #expect(seen.map { [Int($0.type), Int($0.flags), $0.length] } == Self.frames.map { [Int($0.type), Int($0.flags), $0.length] },
                    "pieces of \(pieceSize)")
        }
    }

    @Test("a refused frame stops the scan there")
    func refusal() {
        var scanner = InboundFrameScanner()
        var seen = 0
        let finished = Self.stream.withUnsafeBytes { scanner.scan($0) { _ in seen += 1; return seen < 3 } }
        #expect(!finished)
        #expect(seen == 3)
    }

    @Test("bytes that do not start with the preface are left to nghttp2")
    func notHTTP2() {
        var scanner = InboundFrameScanner()
        var seen = 0
        let garbage = Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8) + Self.stream
        #expect(garbage.withUnsafeBytes { scanner.scan($0) { _ in seen += 1; return true } })
        #expect(seen == 0)
    }
}
