import Foundation
import RPCCore
import RPCHTTP2
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        let listener = try MuteListener()
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

/// A loopback socket that listens but never accepts: connections complete, then silence.
private struct MuteListener {
    let fd: Int32
    let port: Int

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr = in_addr(s_addr: in_addr_t(0x7F00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard fd >= 0, ok else {
            closeSocket(fd)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() {
        closeSocket(fd)
    }
}

/// `close(2)`, under a name that `MuteListener.close()` does not shadow.
private func closeSocket(_ fd: Int32) {
    _ = close(fd)
}
