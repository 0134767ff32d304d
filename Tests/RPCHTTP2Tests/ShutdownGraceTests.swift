import InMemoryLogging
import Logging
import RPCCore
import RPCHTTP2
import Testing

/// A graceful shutdown ends within its grace period whatever the calls do: those still running
/// then are answered UNAVAILABLE and their handlers cancelled, and the server stops without
/// waiting for a handler that ignores cancellation.
@Suite("Shutdown grace period", .timeLimit(.minutes(1)))
struct ShutdownGraceTests {
    @Test("calls still running when the grace period ends are answered UNAVAILABLE; run() returns, counting them, with a handler still stuck")
    func graceEnds() async throws {
        let log = InMemoryLogHandler()
        let probe = try await withTestServer(configure: { $0.shutdownGracePeriod = .milliseconds(500) }, logger: log.logger) { server in
            let client = RPCClient(transport: try await server.connect())
            let stuck = Task { try await client.unary(Echo.stuck, EchoRequest(text: "stuck")) }
            let hung = Task { try await client.unary(Echo.hang, EchoRequest(text: "hung")) }
            for text in ["stuck", "hung"] { _ = await server.probe.next { $0 == .started(text) } }
            server.server.beginGracefulShutdown()
            for call in [stuck, hung] {
                let error = try await #require(throws: RPCError.self) { try await call.value }
                #expect(error.code == .unavailable)
                #expect(error.message.contains("grace period"), "\(error)")
            }
            #expect(await server.probe.next { $0 == .cancelled("hung") } != nil, "the cooperative handler was cancelled")
            return server.probe
        }
        // run() returned while the stuck handler still waits.
        let stopped = try #require(log.entries.last { $0.message == "server stopped" })
        #expect("\(stopped.metadata["calls_cut"] ?? "")" == "2")
        let closing = log.entries.filter { $0.message.description.hasPrefix("closing connection: shutdown grace period over") }
        #expect(closing.map { "\($0.metadata["calls_cut"] ?? "")" } == ["2"])
        probe.releaseStuckHandlers()
        #expect(await probe.next { $0 == .released("stuck") } != nil)
    }

    @Test("at shutdown, a cleartext connection that sent nothing is closed; one that sent part of the preface is drained once it finished it")
    func connectionsStillDetectingTheirVersion() async throws {
        let (silentFrames, partialFrames) = try await withTestServer { server in
            let port = server.port
            let raw = try await runBlocking { () throws -> TwoRawConnections in
                let connections = TwoRawConnections(silent: try RawHTTP2Connection(port: port), partial: try RawHTTP2Connection(port: port))
                try connections.partial.sendRaw(Array("PRI * HTTP/2.0\r\n".utf8))
                return connections
            }
            // A call on a third connection: the server has accepted the two before it.
            #expect(try await server.servesAnotherConnection())
            server.server.beginGracefulShutdown()
            return try await runBlocking { () throws -> ([Frame], [Frame]) in
                defer { raw.close() }
                let silentFrames = try raw.silent.readUntilClosed()
                try raw.partial.sendRaw(Array("\r\nSM\r\n\r\n".utf8))
                try raw.partial.sendSettings()
                // The drain's first GOAWAY comes with a PING; its ACK lets the final one follow.
                var frames: [Frame] = []
                while !frames.contains(where: { $0.type == .goAway }), let frame = try raw.partial.readFrame() { frames.append(frame) }
                let ping = frames.first { $0.type == .ping && $0.flags & 0x1 == 0 }
                try raw.partial.sendFrame(type: .ping, flags: 0x1, payload: ping?.payload ?? [])
                return (silentFrames, frames + (try raw.partial.readUntilClosed()))
            }
        }
        // withTestServer returned: the shutdown did not wait on either connection.
        #expect(silentFrames.isEmpty, "closed before a byte of HTTP/2")
        #expect(partialFrames.contains { $0.type == .goAway }, "drained as an HTTP/2 connection: \(partialFrames.map(\.type))")
    }

    @Test("a shutdown whose calls all end within the grace period cuts none and waits for their handlers")
    func graceNotNeeded() async throws {
        let log = InMemoryLogHandler()
        try await withTestServer(configure: { $0.shutdownGracePeriod = .seconds(30) }, logger: log.logger) { server in
            let client = RPCClient(transport: try await server.connect())
            let call = Task { try await client.unary(Echo.get, EchoRequest(text: "drain", sleepMs: 200)) }
            _ = await server.probe.next { $0 == .started("drain") }
            server.server.beginGracefulShutdown()
            #expect(try await call.value.text == "drain")
        }
        let stopped = try #require(log.entries.last { $0.message == "server stopped" })
        #expect("\(stopped.metadata["calls_cut"] ?? "")" == "0")
        #expect(!log.entries.contains { $0.message.description.hasPrefix("closing connection: shutdown grace period over") })
    }
}

/// Two raw connections handed from one blocking closure to the next; only one thread uses them
/// at a time.
private final class TwoRawConnections: @unchecked Sendable {
    let silent: RawHTTP2Connection
    let partial: RawHTTP2Connection

    init(silent: RawHTTP2Connection, partial: RawHTTP2Connection) {
        self.silent = silent
        self.partial = partial
    }

    func close() {
        silent.close()
        partial.close()
    }
}
