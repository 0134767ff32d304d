import Glibc

/// A blocking TCP connection to 127.0.0.1 for the attackers: sends time out after a second,
/// reads never block, and what the server sent is only scanned for GOAWAY.
final class RawSocket {
    /// How a connection ended, from the attacker's side.
    enum State {
        case open
        /// The server closed or reset it.
        case closedByServer
        /// A send did not go through within the timeout: the server stopped reading.
        case stalled
    }

    private(set) var state = State.open
    private(set) var scanner = FrameScanner()
    private let fd: Int32

    /// Connects, or returns `nil` when the server refuses or the system has no port left.
    init?(port: Int) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr = in_addr(s_addr: in_addr_t(0x7F00_0001).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return nil }  // deinit closes the socket
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Sends all of `bytes` unless the connection is no longer open; returns whether it is.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while state == .open && offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent >= 0 {
                offset += sent
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                state = .stalled
            } else if errno != EINTR {
                state = .closedByServer
            }
        }
        return state == .open
    }

    /// Reads and scans whatever has arrived, without waiting; returns whether the connection is
    /// still open.
    @discardableResult
    func drain() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while state == .open {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                chunk.withUnsafeBytes { scanner.scan(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                state = .closedByServer
            } else {
                break
            }
        }
        return state == .open
    }

    /// Waits up to `milliseconds` for the server to hang up, without reading anything.
    func waitForHangUp(milliseconds: Int32) {
        let readHangUp: Int16 = 0x2000  // POLLRDHUP, which Glibc's module leaves out
        var poller = pollfd(fd: fd, events: readHangUp, revents: 0)
        if poll(&poller, 1, milliseconds) > 0 && poller.revents & (readHangUp | Int16(POLLHUP | POLLERR)) != 0 {
            state = .closedByServer
        }
    }
}
