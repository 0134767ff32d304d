// stream-memory-benchmark server PORT | client PORT BYTES: a client stream of BYTES in messages of
// 64 KiB into a handler that reads one message a millisecond (`bench.v1.Stream/Upload`). Each
// side prints its peak resident memory (VmHWM) when it is done; the server after each upload.
import Foundation
import RPCCore
import RPCHTTP2

struct Chunk: Codable, Sendable {
    var data: String
}

struct Received: Codable, Sendable {
    var messages: Int
    var bytes: Int
}

let upload = ClientStreamingMethod<Chunk, Received>(service: "bench.v1.Stream", method: "Upload")

/// This process's peak resident memory, in MiB.
func peakMiB() -> Double {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, let port = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: stream-memory-benchmark server PORT | client PORT BYTES\n".utf8))
    exit(2)
}

switch arguments[1] {
case "server":
    var router = Router()
    router.register(upload, .clientStreaming { requests, _ in
        var received = Received(messages: 0, bytes: 0)
        for try await chunk in requests {
            received.messages += 1
            received.bytes += chunk.data.utf8.count
            try await Task.sleep(for: .milliseconds(1))
        }
        FileHandle.standardOutput.write(Data(String(format: "server peak_rss_mib=%.1f messages=%d\n", peakMiB(), received.messages).utf8))
        return received
    })
    var configuration = HTTP2ServerConfiguration.defaults
    configuration.port = port
    try await HTTP2Server(router: router, configuration: configuration).run()
case "client":
    guard arguments.count == 4, let total = Int(arguments[3]) else { exit(2) }
    let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port)
    let chunk = Chunk(data: String(repeating: "x", count: 64 * 1024))
    let start = ContinuousClock.now
    let received = try await RPCClient(transport: connection).clientStreaming(upload) { writer in
        var sent = 0
        while sent < total {
            try await writer.write(chunk)
            sent += chunk.data.utf8.count
        }
    }
    let elapsed = ContinuousClock.now - start
    print(String(format: "client peak_rss_mib=%.1f bytes=%d seconds=%.1f", peakMiB(), received.bytes, Double(elapsed.components.seconds)))
    await connection.close()
default:
    exit(2)
}
