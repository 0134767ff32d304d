@testable import catalogd
import Testing

@Suite("Listen address")
struct ListenAddressTests {
    @Test("HOST:PORT parses; brackets come off IPv6 hosts; an empty host is 127.0.0.1",
          arguments: [("127.0.0.1:50051", "127.0.0.1", 50051), ("[::1]:8080", "::1", 8080), (":9", "127.0.0.1", 9), ("db.internal:0", "db.internal", 0)])
    func parses(text: String, host: String, port: Int) throws {
        let address = try ListenAddress(parsing: text)
        #expect(address.host == host)
        #expect(address.port == port)
    }

    @Test("anything else is refused", arguments: ["nonsense", "host:", "host:65536", "host:-1", ""])
    func refuses(text: String) {
        #expect(throws: (any Error).self) { try ListenAddress(parsing: text) }
    }

    @Test("loopback: localhost, 127.0.0.0/8, ::1 and IPv4-mapped 127.x",
          arguments: ["localhost:1", "127.0.0.1:1", "127.255.0.9:1", "[::1]:1", "[0:0:0:0:0:0:0:1]:1", "[::ffff:127.0.0.1]:1"])
    func loopback(text: String) throws {
        #expect(try ListenAddress(parsing: text).isLoopback)
    }

    @Test("everything else may be reachable from elsewhere",
          arguments: ["0.0.0.0:1", "[::]:1", "10.0.0.1:1", "128.0.0.1:1", "[::2]:1", "[::ffff:10.0.0.1]:1", "example.com:1", "localhost.evil:1"])
    func notLoopback(text: String) throws {
        #expect(try !ListenAddress(parsing: text).isLoopback)
    }
}
