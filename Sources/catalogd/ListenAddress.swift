import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where catalogd listens: `HOST:PORT` as given to `--address`.
struct ListenAddress {
    var host: String
    var port: Int

    /// Parses `HOST:PORT` (`[::1]:50051` for IPv6; an empty host is `127.0.0.1`).
    init(parsing text: String) throws(ValidationError) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port)
        else {
            throw ValidationError("address must be HOST:PORT, got '\(text)'")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.host = host.isEmpty ? "127.0.0.1" : host
        self.port = port
    }

    /// Whether only this machine can reach the address: `localhost`, 127.0.0.0/8, `::1` or
    /// `::ffff:127.x.x.x`. Any other name or address (`0.0.0.0`, `::`) counts as reachable from
    /// elsewhere.
    var isLoopback: Bool {
        if host == "localhost" { return true }
        var ipv4 = in_addr()
        if inet_pton(AF_INET, host, &ipv4) == 1 {
            return UInt32(bigEndian: ipv4.s_addr) >> 24 == 127
        }
        var ipv6 = in6_addr()
        guard inet_pton(AF_INET6, host, &ipv6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: ipv6) { Array($0) }
        let loopback: [UInt8] = Array(repeating: 0, count: 15) + [1]
        let mappedIPv4Loopback: [UInt8] = Array(repeating: 0, count: 10) + [0xFF, 0xFF, 127]
        return bytes == loopback || Array(bytes.prefix(13)) == mappedIPv4Loopback
    }
}
