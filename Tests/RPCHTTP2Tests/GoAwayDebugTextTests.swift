import Foundation
import RPCCore
import RPCHTTP2
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("A server's GOAWAY debug text", .timeLimit(.minutes(1)))
struct GoAwayDebugTextTests {
    @Test("10 KiB of GOAWAY debug text reach a call's error cut to its first 256 bytes")
    func longDebugTextIsCut() async throws {
        let debugText = String(repeating: "abcdefgh", count: 1280)
        let goAway = Frame(
            type: .goAway, payload: [0, 0, 0, 0, 0, 0, 0, UInt8(HTTP2ErrorCode.enhanceYourCalm)] + Array(debugText.utf8))
        let server = try OneShotServer(answer: Frame(type: .settings).encoded + goAway.encoded)
        let serving = Task { try await runBlocking { try server.serveOnce() } }
        let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: server.port)
        let client = RPCClient(transport: connection)
        // A call made before the GOAWAY arrived is refused with the stream; once it is read,
        // every call fails with its reason.
        _ = try? await client.unary(Echo.get, EchoRequest(text: "first"))
        let error = try await #require(throws: RPCError.self) {
            try await client.unary(Echo.get, EchoRequest(text: "hello?"))
        }
        await connection.close()
        try await serving.value
        #expect(error.code == .unavailable, "\(error)")
        #expect(error.message.contains("GOAWAY code 11: abcdefgh"), "\(error.message.prefix(300))")
        #expect(error.message.utf8.count < 400, "the error kept \(error.message.utf8.count) bytes")
    }
}

/// A loopback listener that accepts one connection, writes `answer`, stops writing, and reads
/// until the client closes.
private struct OneShotServer: Sendable {
    let fd: Int32
    let port: Int
    let answer: [UInt8]

    init(answer: [UInt8]) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr = in_addr(s_addr: in_addr_t(0x7F00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard fd >= 0, ok else {
            _ = close(fd)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        self.fd = fd
        self.answer = answer
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func serveOnce() throws {
        defer { _ = close(fd) }
        let client = accept(fd, nil, nil)
        guard client >= 0 else { throw POSIXError(.ECONNABORTED) }
        defer { _ = close(client) }
        let written = answer.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
        guard written == answer.count else { throw POSIXError(.EIO) }
        shutdown(client, Int32(SHUT_WR))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(client, &buffer, buffer.count) > 0 {}
    }
}
