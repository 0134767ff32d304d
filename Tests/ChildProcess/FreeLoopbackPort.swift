#if canImport(Glibc)
import Glibc
#endif

/// A port on 127.0.0.1 the kernel considers free, for a child process to listen on (or, for a
/// client, an address where nothing listens): bind port 0, read the port back, close.
public func freeLoopbackPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ChildProcessError(path: "127.0.0.1:0", operation: "socket", errno: errno) }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr = in_addr(s_addr: in_addr_t(0x7F00_0001).bigEndian)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
        }
    }
    guard bound else { throw ChildProcessError(path: "127.0.0.1:0", operation: "bind/getsockname", errno: errno) }
    return Int(UInt16(bigEndian: address.sin_port))
}
