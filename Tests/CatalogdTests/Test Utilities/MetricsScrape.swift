import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One `GET /metrics` over a plain socket: the status line, the headers and the samples of
/// the Prometheus text exposition.
struct MetricsScrape: Sendable {
    /// E.g. `HTTP/1.1 200 OK`.
    var statusLine: String
    /// Header names lowercased.
    var headers: [String: String]
    /// Every sample line, `name{labels}` (as written) to value.
    var samples: [String: Double]
    var body: String

    /// Fetches `path` from 127.0.0.1:`port` (blocking; the endpoint answers at once).
    static func fetch(port: Int, path: String = "/metrics") throws -> MetricsScrape {
        let text = try HTTPGet.run(port: port, request: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        guard let split = text.range(of: "\r\n\r\n") else { throw HTTPGet.Failure("no end of headers in: \(text)") }
        let head = text[..<split.lowerBound].split(separator: "\r\n").map(String.init)
        let body = String(text[split.upperBound...])
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingPrefix(" ").description
        }
        var samples: [String: Double] = [:]
        for line in body.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            samples[String(line[..<space])] = value
        }
        return MetricsScrape(statusLine: head.first ?? "", headers: headers, samples: samples, body: body)
    }

    /// The `le` bounds (in seconds, `+Inf` last) and cumulative counts of the histogram `name`
    /// for the label text `labels` (e.g. `method="/catalog.v1.Categories/List"`).
    func histogram(_ name: String, _ labels: String) -> [(le: Double, count: Double)] {
        samples.compactMap { key, value -> (le: Double, count: Double)? in
            let prefix = "\(name)_bucket{\(labels),le=\""
            guard key.hasPrefix(prefix), key.hasSuffix("\"}") else { return nil }
            let bound = key.dropFirst(prefix.count).dropLast(2)
            return (le: bound == "+Inf" ? .infinity : Double(bound) ?? .nan, count: value)
        }.sorted { $0.le < $1.le }
    }
}

/// A minimal HTTP/1.1 client: one request with `Connection: close`, read to end of file.
enum HTTPGet {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Sends `request` to 127.0.0.1:`port` and reads until the server closes the connection
    /// (10 s at most: then it throws).
    static func run(port: Int, request: String) throws -> String {
        let fd = try connect(port: port)
        defer { close(fd) }
        let bytes = Array(request.utf8)
        guard send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { throw Failure("send: errno \(errno)") }
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count > 0 {
                response += chunk[..<count]
            } else if count == 0 {
                break
            } else if errno != EINTR {
                throw Failure("recv: errno \(errno) after \(response.count) bytes")
            }
        }
        return String(decoding: response, as: UTF8.self)
    }

    /// A socket connected to 127.0.0.1:`port`, whose reads give up after 10 s.
    static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket: errno \(errno)") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr = in_addr(s_addr: in_addr_t(0x7F00_0001).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw Failure("connect to 127.0.0.1:\(port): errno \(errno)")
        }
        return fd
    }
}
