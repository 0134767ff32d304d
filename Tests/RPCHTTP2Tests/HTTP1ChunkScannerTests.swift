import Testing

@testable import RPCHTTP2

/// `HTTP1ChunkScanner` follows request framing beside the decoder: it finds a chunk declared
/// over the limit wherever the bytes are split, and never mistakes a body's bytes, a header or
/// a trailer for a chunk size.
@Suite("HTTP/1.1 chunk scanner")
struct HTTP1ChunkScannerTests {
    static let limit = 100
    static let chunkedHead = "POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"

    /// What the scanner reports for `text`, fed whole and in every two-piece split.
    static func scan(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        var whole = HTTP1ChunkScanner(maxChunkSize: limit)
        let expected = bytes.withUnsafeBytes { whole.scan($0) }
        for split in 0...bytes.count {
            var scanner = HTTP1ChunkScanner(maxChunkSize: limit)
            let first = bytes[..<split].withUnsafeBytes { scanner.scan($0) }
            let found = first ?? bytes[split...].withUnsafeBytes { scanner.scan($0) }
            #expect(found == expected, "split at \(split) of \(text.debugDescription)")
        }
        var byteByByte = HTTP1ChunkScanner(maxChunkSize: limit)
        var found: Int?
        for byte in bytes where found == nil {
            found = [byte].withUnsafeBytes { byteByByte.scan($0) }
        }
        #expect(found == expected, "byte by byte")
        return expected
    }

    @Test("a chunk over the limit is reported as soon as its size says so, first or later, with an extension or not")
    func oversized() {
        #expect(Self.scan(Self.chunkedHead + "7fffffff") == 0x7F)
        #expect(Self.scan(Self.chunkedHead + "65\r\n") == 0x65)
        #expect(Self.scan(Self.chunkedHead + "2\r\n{}\r\n3;ext=1\r\nabc\r\n1F4 ;x\r\n") == 0x1F4)
        #expect(Self.scan("\r\nPOST /a HTTP/1.1\r\ntransfer-encoding: gzip, CHUNKED\r\n\r\nFFF") == 0xFF)
    }

    @Test("chunks at the limit, bodies, headers and trailers that look like sizes are not reported")
    func withinLimit() {
        #expect(Self.scan(Self.chunkedHead + "64\r\n" + String(repeating: "f", count: 100) + "\r\n0\r\n\r\n") == nil)
        // A body of known length whose bytes look like a chunk size, then a request without one.
        let body = "fffff\r\nfffff"
        #expect(Self.scan("POST /a HTTP/1.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)GET /b HTTP/1.1\r\n\r\n") == nil)
        // Not chunked: a header value or a GET.
        #expect(Self.scan("POST /a HTTP/1.1\r\nX-Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\nfff") == nil)
        #expect(Self.scan("GET /a HTTP/1.1\r\nX: fffffffff\r\n\r\nGET /b HTTP/1.1\r\n\r\n") == nil)
        // Trailers after the last chunk, then a pipelined request whose chunk is small.
        #expect(Self.scan(Self.chunkedHead + "0\r\nX-Fff: ffffff\r\n\r\n" + Self.chunkedHead + "5\r\nabcde\r\n0\r\n\r\n") == nil)
    }

    @Test("a pipelined request after chunked and fixed-length ones is still followed")
    func pipelined() {
        let first = Self.chunkedHead + "3\r\nabc\r\n0\r\n\r\n"
        let second = "POST /b HTTP/1.1\r\nContent-Length: 4\r\n\r\n7fff"
        #expect(Self.scan(first + second + Self.chunkedHead + "FFFF\r\n") == 0xFF)
    }

    @Test("bytes the decoder refuses stop the scanner for the connection")
    func givesUp() {
        #expect(Self.scan("POST /a HTTP/1.1\nTransfer-Encoding: chunked\r\n\r\nFFFF\r\n") == nil)
        #expect(Self.scan(Self.chunkedHead + "zz\r\nFFFF\r\n") == nil)
        #expect(Self.scan(Self.chunkedHead + "3\r\nabcX\r\nFFFF\r\n") == nil)
    }
}
