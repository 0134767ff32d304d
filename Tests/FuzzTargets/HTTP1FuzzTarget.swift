import Logging
import NIOCore
import NIOEmbedded
import RPCCore
import RPCHTTP2

/// The HTTP/1.1 front end under fuzzing: a client's bytes go through the version detector,
/// swift-nio's HTTP/1.1 codec and `catalogd`'s HTTP/1.1 handler and router (the same store and
/// services as `ConnectionFuzzTarget`) in memory, on an `EmbeddedChannel`. Inline calls are
/// answered; calls that would run in a task are refused.
///
/// Promises checked for every input: no crash, and an output that is a sequence of well-formed
/// HTTP/1.1 responses (`HTTP1OutputCheck`).
public enum HTTP1FuzzTarget {
    /// A request line every input is prefixed with when its first byte is even, so that the
    /// fuzzer spends its time past it.
    static let requestStart = Array("POST /catalog.v1.Catalog/GetItem HTTP/1.1\r\n".utf8)

    /// Serves `input` on a new connection: the first byte chooses whether a request line is
    /// prepended (even) and how the rest is cut into reads; after the reads, the clock moves
    /// past every timeout, then the client leaves.
    public static func run(_ input: [UInt8]) throws(FuzzFailure) {
        guard let first = input.first else { return }
        var bytes = (first % 2 == 0 ? requestStart : []) + input.dropFirst()
        // Never the HTTP/2 preface: that is `ConnectionFuzzTarget`'s.
        if bytes.starts(with: Array("PRI ".utf8)) { bytes[0] = UInt8(ascii: "p") }
        let handler = HTTP2Server.versionDetectingHandler(
            router: ConnectionFuzzTarget.served.router, configuration: ConnectionFuzzTarget.configuration, logger: ConnectionFuzzTarget.logger)
        let output = try EmbeddedConnection.serve(bytes, to: handler, first: first)
        try HTTP1OutputCheck.check(output)
    }
}

/// Checks that bytes a server sent are HTTP/1.1 responses, one after another: a status line
/// `HTTP/1.1 NNN reason`, header lines, then a body of `content-length` bytes, or chunked to its
/// last chunk (or, for a stream the client left, well-formed chunks to the end of the output),
/// or (with neither) to the end of the output.
public enum HTTP1OutputCheck {
    public static func check(_ output: [UInt8]) throws(FuzzFailure) {
        var index = 0
        while index < output.count {
            guard let headEnd = find(Array("\r\n\r\n".utf8), in: output, from: index) else {
                throw FuzzFailure("a response head that does not end, at byte \(index)")
            }
            let lines = String(decoding: output[index..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
            let status = lines[0]
            guard status.hasPrefix("HTTP/1.1 "), status.count >= 12, Int(status.dropFirst(9).prefix(3)).map({ (100...599).contains($0) }) == true
            else {
                throw FuzzFailure("not a status line: \(status.prefix(80))")
            }
            var length: Int?
            var chunked = false
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { throw FuzzFailure("not a header line: \(line.prefix(80))") }
                let name = line[..<colon].lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if name == "content-length" { length = Int(value) }
                if name == "transfer-encoding", value == "chunked" { chunked = true }
            }
            index = headEnd + 4
            if chunked {
                while true {
                    guard let lineEnd = find(Array("\r\n".utf8), in: output, from: index) else {
                        return  // a stream cut off where the client left
                    }
                    guard let size = Int(String(decoding: output[index..<lineEnd], as: UTF8.self), radix: 16) else {
                        throw FuzzFailure("a bad chunk size at byte \(index)")
                    }
                    index = lineEnd + 2 + size + 2
                    guard index <= output.count else { return }
                    guard output[index - 2] == UInt8(ascii: "\r"), output[index - 1] == UInt8(ascii: "\n") else {
                        throw FuzzFailure("a chunk not ended by CRLF at byte \(index - 2)")
                    }
                    if size == 0 { break }
                }
            } else if let length {
                index += length
                guard index <= output.count else { throw FuzzFailure("a body shorter than its content-length") }
            } else {
                return
            }
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
