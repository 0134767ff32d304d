import Foundation
import HTTP2TestSupport
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
    let listener: LoopbackListener
    let answer: [UInt8]

    var port: Int { listener.port }

    init(answer: [UInt8]) throws {
        listener = try LoopbackListener(backlog: 1)
        self.answer = answer
    }

    func serveOnce() throws {
        defer { listener.close() }
        let client = accept(listener.fd, nil, nil)
        guard client >= 0 else { throw POSIXError(.ECONNABORTED) }
        defer { closeSocket(client) }
        let written = answer.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
        guard written == answer.count else { throw POSIXError(.EIO) }
        shutdown(client, Int32(SHUT_WR))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(client, &buffer, buffer.count) > 0 {}
    }
}
