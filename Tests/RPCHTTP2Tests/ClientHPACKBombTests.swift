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

@Suite("An HPACK bomb from a server", .timeLimit(.minutes(1)))
struct ClientHPACKBombTests {
    @Test("response headers that decode far past the client's limit fail the call with the reason, undecoded")
    func bombFromServer() async throws {
        let listener = try LoopbackListener(backlog: 1)
        let serving = Task { try await runBlocking { try Self.answerFirstRequestWithBomb(listener) } }
        let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: listener.port)
        let error = try await #require(throws: RPCError.self) {
            try await RPCClient(transport: connection).unary(Echo.get, EchoRequest(text: "hello"))
        }
        await connection.close()
        try await serving.value
        #expect(error.code == .unavailable, "\(error)")
        #expect(error.message.contains("header block decoding past"), "\(error)")
    }

    /// Accepts one connection, reads until the client's first HEADERS frame, answers it with
    /// response headers that reference one 4 000-byte field 78 000 times, then reads until the
    /// client closes.
    private static func answerFirstRequestWithBomb(_ listener: LoopbackListener) throws {
        defer { listener.close() }
        let client = accept(listener.fd, nil, nil)
        guard client >= 0 else { throw POSIXError(.ECONNABORTED) }
        defer { closeSocket(client) }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var streamID: UInt32?
        while streamID == nil {
            let count = read(client, &chunk, chunk.count)
            guard count > 0 else { throw POSIXError(.ECONNRESET) }
            received += chunk[0..<count]
            var offset = RawHTTP2Connection.clientPreface.count
            while received.count >= offset + 9 {
                let length = Int(received[offset]) << 16 | Int(received[offset + 1]) << 8 | Int(received[offset + 2])
                if received[offset + 3] == FrameType.headers.rawValue {
                    streamID = Frame.readUInt32(received, at: offset + 5) & 0x7FFF_FFFF
                    break
                }
                offset += 9 + length
            }
        }
        let status = RawHTTP2Connection.hpackLiteral([(":status", "200"), ("content-type", "application/grpc")])
        let large = [0x40] + RawHTTP2Connection.hpackString("x-bomb") + RawHTTP2Connection.hpackString(String(repeating: "a", count: 4000))
        let block = status + large + [UInt8](repeating: 0x80 | 62, count: 5 * 16_384 - status.count - large.count)
        var answer = Frame(type: .settings).encoded
        for start in stride(from: 0, to: block.count, by: 16_384) {
            let last = start + 16_384 >= block.count
            answer += Frame(
                type: start == 0 ? .headers : .continuation, flags: last ? FrameFlags.endHeaders : 0, streamID: streamID!,
                payload: Array(block[start..<min(start + 16_384, block.count)])
            ).encoded
        }
        let written = answer.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
        guard written == answer.count else { throw POSIXError(.EIO) }
        while read(client, &chunk, chunk.count) > 0 {}
    }
}
