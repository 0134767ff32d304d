import Foundation
import HTTP2TestSupport
import RPCCore
import RPCHTTP2
import Testing

@Suite("Client keepalive PINGs", .timeLimit(.minutes(1)))
struct ClientKeepaliveTests {
    private static func keepalive(every interval: Duration, timeout: Duration) -> HTTP2ClientConfiguration {
        var configuration = HTTP2ClientConfiguration.defaults
        configuration.keepaliveInterval = interval
        configuration.keepaliveTimeout = timeout
        return configuration
    }

    @Test("a peer that never answers: the unanswered PING closes the connection and its call fails UNAVAILABLE")
    func silentPeer() async throws {
        let listener = try LoopbackListener()  // never accepts: connections complete, then silence
        defer { listener.close() }
        // The kernel completes the handshake from the backlog; nothing ever reads or answers.
        let connection = try await HTTP2ClientConnection.connect(
            host: "127.0.0.1", port: listener.port,
            configuration: Self.keepalive(every: .milliseconds(100), timeout: .milliseconds(200)))
        let error = try await #require(throws: RPCError.self) {
            try await RPCClient(transport: connection).unary(Echo.get, EchoRequest(text: "hello?"))
        }
        #expect(error.code == .unavailable)
        #expect(error.message.contains("keepalive"), "\(error)")
        await connection.close()
    }

    @Test("a peer that answers PINGs keeps the connection through a long silent call")
    func answeringPeer() async throws {
        try await withTestServer { server in
            let connection = try await server.connect(Self.keepalive(every: .milliseconds(50), timeout: .seconds(15)))
            let client = RPCClient(transport: connection)
            let error = try await #require(throws: RPCError.self) {
                try await client.unary(Echo.hang, EchoRequest(text: "x"), options: CallOptions(timeout: .milliseconds(1800)))
            }
            // An unanswered PING would have closed the connection after about 1.05 s.
            #expect(error.code == .deadlineExceeded, "the PINGs were answered, so only the deadline ended the call: \(error)")
            #expect(try await client.unary(Echo.get, EchoRequest(text: "still here")).text == "still here")
            await connection.close()
        }
    }
}
