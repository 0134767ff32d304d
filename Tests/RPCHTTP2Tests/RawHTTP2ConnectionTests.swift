import ChildProcess
import Foundation
import Glibc
import Testing

/// Checks the raw HTTP/2 test client against a real HTTP/2 server (Debian's nghttpd, package nghttp2-server).
@Suite("Raw HTTP/2 connection (against nghttpd)")
struct RawHTTP2ConnectionTests {
    @Test("Preface + SETTINGS gets the server's SETTINGS and a SETTINGS ACK")
    func prefaceGetsSettingsAndAck() throws {
        let server = try NghttpdServer()
        defer { server.stop() }
        let connection = try server.connect()
        defer { connection.close() }

        try connection.sendPreface()
        var sawSettings = false
        var sawAck = false
        while !(sawSettings && sawAck) {
            let frame = try #require(
                try connection.readUntil { $0.type == .settings },
                "nghttpd closed the connection; frames: \(connection.receivedFrames)")
            #expect(frame.streamID == 0)
            if frame.isAck {
                #expect(frame.payload.isEmpty)
                sawAck = true
            } else {
                #expect(frame.settingsParameters != nil)
                sawSettings = true
            }
        }
    }

    @Test("PING gets a PING ACK with the same payload")
    func pingGetsAck() throws {
        let server = try NghttpdServer()
        defer { server.stop() }
        let connection = try server.connect()
        defer { connection.close() }

        try connection.sendPreface()
        let payload: UInt64 = 0x0102_0304_0506_0708
        try connection.sendPing(payload)
        let ack = try #require(try connection.readUntil { $0.type == .ping && $0.isAck })
        #expect(ack.streamID == 0)
        #expect(ack.pingPayload == payload)
        #expect(ack.payload == [1, 2, 3, 4, 5, 6, 7, 8])
    }

    @Test("Garbage instead of the preface makes the server close the connection")
    func garbagePrefaceClosesConnection() throws {
        let server = try NghttpdServer()
        defer { server.stop() }
        let connection = try server.connect()
        defer { connection.close() }

        try connection.sendRaw(Array("this is definitely not an HTTP/2 connection preface\r\n\r\n".utf8))
        let frames = try connection.readUntilClosed()
        // nghttpd may or may not send its SETTINGS and a GOAWAY before closing; if it sends a GOAWAY,
        // it must carry an error code.
        for frame in frames where frame.type == .goAway {
            #expect(frame.goAwayErrorCode != HTTP2ErrorCode.noError, "\(frame)")
        }
        // Once closed, reads keep reporting the close.
        #expect(try connection.readFrame() == nil)
    }

    @Test("A GET split into HEADERS + 3 CONTINUATION frames gets a HEADERS response on stream 1")
    func headersSplitAcrossContinuations() throws {
        let server = try NghttpdServer()
        defer { server.stop() }
        let connection = try server.connect()
        defer { connection.close() }

        try connection.sendPreface()
        let block = RawHTTP2Connection.hpackLiteral([
            (":method", "GET"),
            (":scheme", "http"),
            (":path", "/"),
            (":authority", "localhost"),
        ])
        let chunkSize = (block.count + 3) / 4
        let chunks = stride(from: 0, to: block.count, by: chunkSize).map {
            Array(block[$0..<min($0 + chunkSize, block.count)])
        }
        try #require(chunks.count == 4)
        try connection.sendHeaders(streamID: 1, headerBlockFragment: chunks[0], endStream: true, endHeaders: false)
        for (index, chunk) in chunks.dropFirst().enumerated() {
            try connection.sendContinuation(streamID: 1, headerBlockFragment: chunk, endHeaders: index == 2)
        }

        let response = try #require(
            try connection.readUntil { $0.type == .headers || $0.type == .goAway || $0.type == .rstStream },
            "nghttpd closed the connection; frames: \(connection.receivedFrames)")
        #expect(response.type == .headers, "\(response)")
        #expect(response.streamID == 1)
        #expect(response.isEndHeaders)
    }

    @Test("Header values longer than 127 bytes use multi-byte HPACK lengths the server accepts")
    func longHeaderValue() throws {
        let server = try NghttpdServer()
        defer { server.stop() }
        let connection = try server.connect()
        defer { connection.close() }

        try connection.sendPreface()
        try connection.sendHeaders(
            streamID: 1,
            headers: [
                (":method", "GET"),
                (":scheme", "http"),
                (":path", "/"),
                (":authority", "localhost"),
                ("x-long-header", String(repeating: "a", count: 1000)),
            ],
            endStream: true)
        let response = try #require(
            try connection.readUntil { $0.type == .headers || $0.type == .goAway || $0.type == .rstStream },
            "nghttpd closed the connection; frames: \(connection.receivedFrames)")
        #expect(response.type == .headers, "\(response)")
        #expect(response.streamID == 1)
    }

    @Test("Waiting for a frame that never comes throws a timeout error after readTimeout")
    func readTimesOut() throws {
        let server = try NghttpdServer()
        defer { server.stop() }
        let connection = try server.connect(readTimeout: .milliseconds(300))
        defer { connection.close() }

        try connection.sendPreface()
        let start = ContinuousClock.now
        let error = #expect(throws: RawHTTP2Error.self) {
            _ = try connection.readUntil { _ in false }
        }
        let elapsed = ContinuousClock.now - start
        guard case .timedOut(_, _, let received) = error else {
            Issue.record("expected a timeout, got \(String(describing: error))")
            return
        }
        // The server's SETTINGS and the ACK of ours arrived, but the connection stays open.
        #expect(received.contains { $0.type == .settings })
        #expect(elapsed >= .milliseconds(250) && elapsed < .seconds(3), "\(elapsed)")
    }

    @Test("HPACK integer and literal encoding (RFC 7541 examples)")
    func hpackEncoding() {
        // RFC 7541, C.1.1 - C.1.3.
        #expect(RawHTTP2Connection.hpackInteger(10, prefixBits: 5) == [0x0A])
        #expect(RawHTTP2Connection.hpackInteger(1337, prefixBits: 5) == [0x1F, 0x9A, 0x0A])
        #expect(RawHTTP2Connection.hpackInteger(42, prefixBits: 8) == [0x2A])
        // Boundaries of the 7-bit prefix used for string lengths.
        #expect(RawHTTP2Connection.hpackInteger(126, prefixBits: 7) == [0x7E])
        #expect(RawHTTP2Connection.hpackInteger(127, prefixBits: 7) == [0x7F, 0x00])
        #expect(RawHTTP2Connection.hpackInteger(300, prefixBits: 7) == [0x7F, 0xAD, 0x01])
        #expect(RawHTTP2Connection.hpackInteger(5, prefixBits: 4, flags: 0x10) == [0x15])
        // RFC 7541, C.2.2 (same representation without indexing).
        #expect(
            RawHTTP2Connection.hpackLiteral([("a", "bc")]) == [0x00, 0x01, 0x61, 0x02, 0x62, 0x63])
    }

    @Test("Frame encoding and accessors")
    func frameEncoding() {
        let frame = Frame(type: .rstStream, flags: 0, streamID: 0x8000_0003, payload: [0, 0, 0, 8])
        #expect(frame.encoded == [0, 0, 4, 3, 0, 0x80, 0, 0, 3, 0, 0, 0, 8])
        #expect(frame.rstStreamErrorCode == HTTP2ErrorCode.cancel)
        let goAway = Frame(type: .goAway, payload: [0x80, 0, 0, 5, 0, 0, 0, 1] + Array("bye".utf8))
        #expect(goAway.goAwayLastStreamID == 5)
        #expect(goAway.goAwayErrorCode == HTTP2ErrorCode.protocolError)
        #expect(goAway.goAwayDebugData == "bye")
        #expect(goAway.rstStreamErrorCode == nil)
        #expect(Frame(type: .data, flags: 0x1).isEndStream)
        #expect(!Frame(type: .data, flags: 0x1).isAck)
        #expect(Frame(type: .settings, flags: 0x1).isAck)
        #expect(!Frame(type: .settings, flags: 0x1).isEndStream)
        let headers = RawHTTP2Connection.grpcRequestHeaders(path: "/pkg.Service/Method")
        #expect(headers.map(\.0) == [":method", ":scheme", ":path", ":authority", "content-type", "te"])
        #expect(headers.map(\.1) == ["POST", "http", "/pkg.Service/Method", "localhost", "application/grpc", "trailers"])
    }
}

// MARK: - nghttpd launcher

/// Runs `nghttpd --no-tls` on a free loopback port, serving an empty temporary document root.
private final class NghttpdServer {
    static let executable = "/usr/sbin/nghttpd"

    let port: Int
    private let process: ChildProcess
    private let directory: URL

    init() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw NghttpdError(
                "\(Self.executable) is not installed; these tests need it (apt-get install nghttp2-server)")
        }
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("rawh2-nghttpd-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("hello\n".utf8).write(to: directory.appendingPathComponent("index.html"))

        // The free port can be taken between probing and nghttpd binding it: retry with a new port then.
        var lastError: Error = NghttpdError("nghttpd did not start")
        for _ in 0..<3 {
            let port = try freeLoopbackPort()
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: Self.executable)
            process.arguments = ["--no-tls", "-a", "127.0.0.1", "-d", directory.path, String(port)]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            do {
                try Self.waitUntilReady(process, port: port)
                self.port = port
                self.process = process
                return
            } catch {
                lastError = error
                Self.kill(process)
            }
        }
        try? FileManager.default.removeItem(at: directory)
        throw lastError
    }

    func connect(readTimeout: Duration = .seconds(5)) throws -> RawHTTP2Connection {
        try RawHTTP2Connection(port: port, readTimeout: readTimeout)
    }

    func stop() {
        Self.kill(process)
        try? FileManager.default.removeItem(at: directory)
    }

    /// SIGKILL: nghttpd needs no graceful stop. (`ChildProcess` starts it with no signal blocked, so
    /// `terminate()` would work too, although a Swift concurrency thread, which blocks SIGTERM, launched it.)
    private static func kill(_ process: ChildProcess) {
        process.send(signal: SIGKILL)
        process.waitUntilExit()
    }

    /// Retries connecting (bounded) until nghttpd accepts connections.
    private static func waitUntilReady(_ process: ChildProcess, port: Int) throws {
        var lastError: Error?
        for _ in 0..<200 {
            guard process.isRunning else {
                throw NghttpdError("nghttpd exited with status \(process.terminationStatus) before listening on \(port)")
            }
            do {
                let probe = try RawHTTP2Connection(port: port, readTimeout: .seconds(1))
                probe.close()
                return
            } catch {
                lastError = error
                usleep(25_000)
            }
        }
        throw NghttpdError("nghttpd is not accepting connections on port \(port): \(String(describing: lastError))")
    }

}

private struct NghttpdError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
