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
