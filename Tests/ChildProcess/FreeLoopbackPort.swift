import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A port on 127.0.0.1 that nothing is bound to, for a server to listen on (or, for a client,
/// an address where nothing listens).
///
/// It lies below the kernel's ephemeral range (`ip_local_port_range`), so an outgoing
/// connection of another test cannot take it while a server is down and restarted on it. A
/// port is handed out once per process, so two tests starting at once never get the same one.
public func freeLoopbackPort() throws -> Int {
    let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))
    let ephemeralStart = range?.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32768
    for _ in 0..<200 {
        let port = Int.random(in: 10_000..<max(ephemeralStart, 10_001))
        guard handedOut.withLock({ $0.insert(port).inserted }) else { continue }
        if try isFree(port) { return port }
    }
    throw ChildProcessError(path: "127.0.0.1", operation: "finding a free port below \(ephemeralStart)", errno: EADDRINUSE)
}

/// The ports `freeLoopbackPort` returned, or found taken, in this process.
private let handedOut = Mutex<Set<Int>>([])

/// Whether `port` on 127.0.0.1 can be bound now.
private func isFree(_ port: Int) throws -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ChildProcessError(path: "127.0.0.1:\(port)", operation: "socket", errno: errno) }
    defer { close(fd) }
    var reuse: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port)).bigEndian
    address.sin_addr = in_addr(s_addr: in_addr_t(0x7F00_0001).bigEndian)
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
}
