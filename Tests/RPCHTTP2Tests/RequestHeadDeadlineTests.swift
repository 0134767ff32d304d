import Foundation
import CoreMetrics
import MetricsTestKit
import RPCCore
import TestCertificates
import TestSupport
import Testing

@testable import RPCHTTP2

/// Every connection is timed from accept until its first complete request head, whatever it
/// turns out to speak (`HTTP2ServerConfiguration.requestHeadTimeout`), over real sockets: each
/// shape of a connection that never gets there is closed within the bound while a bystander is
/// served, and the connection limits it held recover by themselves.
@Suite("A connection that never sends a request head is closed", .timeLimit(.minutes(1)))
struct RequestHeadDeadlineTests {
    static let bound = Duration.seconds(1)

    /// What a connection sends before it goes quiet.
    enum Shape: String, CaseIterable, CustomTestStringConvertible {
        case nothing
        case partialPreface
        case lonePreface
        case partialHTTP1Head

        var testDescription: String { rawValue }

        var bytes: [UInt8] {
            switch self {
            case .nothing: []
            case .partialPreface: Array(RawHTTP2Connection.clientPreface.prefix(10))
            case .lonePreface: RawHTTP2Connection.clientPreface + Frame(type: .settings).encoded
            case .partialHTTP1Head: Array("POST /echo.v1.Echo/Quick HTTP/1.1\r\nHost: a\r\n".utf8)
            }
        }
    }

    @Test("closed within the bound, with a bystander served meanwhile", arguments: Shape.allCases)
    func closedWithinBound(shape: Shape) async throws {
        let metrics = TestMetrics()
        try await withMetricsFactory(metrics) {
            try await withTestServer(configure: { $0.requestHeadTimeout = Self.bound }) { server in
                let port = server.port
                async let closed = runBlocking {
                    let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(10))
                    defer { raw.close() }
                    let start = ContinuousClock.now
                    try raw.sendRaw(shape.bytes)
                    let answer = try raw.readRawUntilClosed()
                    return (ContinuousClock.now - start, answer)
                }
                #expect(try await server.servesAnotherConnection())
                let (elapsed, answer) = try await closed
                Self.expectWithinBound(elapsed, "\(shape)")
                if shape == .lonePreface {
                    // Server SETTINGS, then GOAWAY NO_ERROR for no stream: a client sees a clean close.
                    let goAway = Array(answer.suffix(17))
                    #expect(goAway.count == 17 && goAway[3] == FrameType.goAway.rawValue, "\(answer)")
                    #expect(Frame.readUInt32(goAway, at: 13) == HTTP2ErrorCode.noError, "\(answer)")
                } else {
                    #expect(answer.isEmpty, "closed without an answer: \(answer)")
                }
            }
        }
        #expect(metrics.counterTotal(label: "rpc_server_connections_closed_total", dimensions: [("reason", "head_timeout")]) == 1)
    }

    @Test("a preface sent one byte at a time is closed within the bound")
    func prefaceByteByByte() async throws {
        try await withTestServer(configure: { $0.requestHeadTimeout = Self.bound }) { server in
            let port = server.port
            let (elapsed, sent) = try await runBlocking {
                let raw = try RawHTTP2Connection(port: port, readTimeout: .milliseconds(200))
                defer { raw.close() }
                let start = ContinuousClock.now
                var sent = 0
                for byte in RawHTTP2Connection.clientPreface {
                    do {
                        try raw.sendRaw([byte])
                        sent += 1
                        // Returns once the server closed; a read timeout means it is still open.
                        _ = try raw.readRawUntilClosed()
                        break
                    } catch RawHTTP2Error.timedOut {
                        continue
                    } catch RawHTTP2Error.peerClosed {
                        break
                    }
                }
                return (ContinuousClock.now - start, sent)
            }
            #expect(sent < RawHTTP2Connection.clientPreface.count, "the whole preface went out before the close")
            Self.expectWithinBound(elapsed, "byte by byte")
            #expect(try await server.servesAnotherConnection())
        }
    }

    @Test("a TLS ClientHello that stops halfway is closed within the bound, before the handshake timeout")
    func partialClientHello() async throws {
        let pki = try TestPKI()
        let tls = try pki.serverTLS()
        try await withTestServer(configure: {
            $0.tls = tls
            $0.requestHeadTimeout = Self.bound
            $0.tlsHandshakeTimeout = .seconds(30)
        }) { server in
            let port = server.port
            let (elapsed, answer) = try await runBlocking {
                let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(10))
                defer { raw.close() }
                let start = ContinuousClock.now
                // A handshake record announcing 512 bytes of ClientHello, and 6 of them.
                try raw.sendRaw([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03])
                let answer = try raw.readRawUntilClosed()
                return (ContinuousClock.now - start, answer)
            }
            Self.expectWithinBound(elapsed, "TLS")
            #expect(answer.isEmpty, "\(answer)")
            let connection = try await server.connect(.tls(ClientTLS(caFile: pki.caFile, serverName: "localhost")))
            #expect(try await RPCClient(transport: connection).unary(Echo.get, EchoRequest(text: "tls")).text == "tls")
            await connection.close()
        }
    }

    @Test("silent connections that fill a connection limit free it by themselves", arguments: [false, true])
    func limitRecovers(perPeer: Bool) async throws {
        try await withTestServer(configure: {
            $0.requestHeadTimeout = Self.bound
            if perPeer { $0.maxConnectionsPerPeer = 3 } else { $0.maxConnections = 3 }
        }) { server in
            let port = server.port
            let (opened, openedContinuation) = AsyncStream<Void>.makeStream()
            async let silentFor = runBlocking {
                defer { openedContinuation.finish() }
                let silent = try (0..<3).map { _ in try RawHTTP2Connection(port: port, readTimeout: .seconds(10)) }
                openedContinuation.yield()
                let start = ContinuousClock.now
                for raw in silent { _ = try raw.readRawUntilClosed() }
                return ContinuousClock.now - start
            }
            for await _ in opened { break }
            // Each connection is counted once its event loop sets it up, in no set order across
            // loops: the next one is refused once the three are counted.
            try await eventually("the three silent connections counted") { server.server.admittedConnectionCount == 3 }
            let refused = try await server.connect()
            let refusal = await #expect(throws: RPCError.self) {
                try await RPCClient(transport: refused).unary(Echo.get, EchoRequest(text: "refused"))
            }
            #expect(refusal?.code == .resourceExhausted, "\(String(describing: refusal))")
            await refused.close()
            let elapsed = try await silentFor
            #expect(elapsed < Self.bound + .seconds(4), "\(elapsed)")
            #expect(try await server.servesAnotherConnection())
        }
    }

    @Test("a connection that sent its first request head is timed by the idle timeout from then on")
    func servedConnectionOutlivesTheBound() async throws {
        try await withTestServer(configure: { $0.requestHeadTimeout = .milliseconds(300) }) { server in
            let connection = try await server.connect()
            let client = RPCClient(transport: connection)
            #expect(try await client.unary(Echo.get, EchoRequest(text: "first")).text == "first")
            // Longer than the bound: a call that sleeps keeps the test free of sleeps of its own.
            #expect(try await client.unary(Echo.get, EchoRequest(text: "slow", sleepMs: 600)).text == "slow")
            #expect(try await client.unary(Echo.get, EchoRequest(text: "again")).text == "again")
            await connection.close()
        }
    }

    /// Closed no sooner than the bound (less the timer's slack) and well before the old 13 to 36 s.
    static func expectWithinBound(_ elapsed: Duration, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(elapsed >= bound - .milliseconds(50), "\(what): closed after \(elapsed)", sourceLocation: sourceLocation)
        #expect(elapsed < bound + .seconds(4), "\(what): closed after \(elapsed)", sourceLocation: sourceLocation)
    }
}
