import Foundation
import RPCCore
import RPCHTTP2
import Synchronization
import Testing

/// A slowloris beside a bystander, over real sockets: many connections that each send one byte
/// a second, reopened as the server closes them at the request-head deadline, while a bystander
/// calls on a connection of its own. Its name ends in `SoakTests` so that `scripts/test.sh` runs
/// it with the soak, apart from the other suites' load.
@Suite("Soak: a slowloris beside a bystander", .timeLimit(.minutes(2)))
struct SlowlorisSoakTests {
    static let connections = 100
    static let bound = Duration.seconds(2)
    /// Each bystander call's deadline: hundreds of times what a call takes on this machine, so
    /// that only a server the attack stalls misses it.
    static let callDeadline = Duration.seconds(1)

    @Test("connections sending one byte a second are closed at the head deadline, again and again; a bystander's calls all answer meanwhile")
    func slowloris() async throws {
        try await withTestServer(configure: { $0.requestHeadTimeout = Self.bound }) { server in
            let port = server.port
            let connection = try await server.connect()
            let client = RPCClient(transport: connection)
            let stop = StopFlag()
            async let attack = runBlocking { try Self.slowloris(port: port, until: stop) }
            // Longer than the bound, so the server closes connections and the attack reopens them meanwhile.
            let calls = try await Self.calls(client, for: Self.bound * 3)
            stop.flag.store(true, ordering: .relaxed)
            let closedByServer = try await attack
            await connection.close()

            #expect(calls.failed.isEmpty, "\(calls.failed.count) of \(calls.answered + calls.failed.count) calls failed: \(calls.failed.prefix(3))")
            #expect(calls.answered >= 10, "the bystander made \(calls.answered) calls in \(Self.bound * 3)")
            #expect(closedByServer >= Self.connections, "the server closed \(closedByServer) of the slow connections")
        }
    }

    /// Unary calls one after another for `duration`, each with `callDeadline`: how many answered,
    /// and the errors of those that did not.
    static func calls(_ client: RPCClient, for duration: Duration) async throws -> (answered: Int, failed: [RPCError]) {
        let end = ContinuousClock.now + duration
        var answered = 0
        var failed: [RPCError] = []
        while ContinuousClock.now < end {
            do {
                _ = try await client.unary(Echo.get, EchoRequest(text: "bystander"), options: CallOptions(timeout: callDeadline))
                answered += 1
            } catch {
                failed.append(error)
            }
        }
        return (answered, failed)
    }

    /// Keeps `connections` connections open, half of them sending an HTTP/1.1 head and half the
    /// HTTP/2 preface, one byte a second each, reopening each one the server closed, until
    /// `stop`; returns how many the server closed.
    static func slowloris(port: Int, until stop: StopFlag) throws -> Int {
        let heads = [Array("POST /echo.v1.Echo/Get HTTP/1.1\r\nHost: a\r\nX-Slow: ".utf8) + Array(repeating: UInt8(ascii: "s"), count: 64),
                     RawHTTP2Connection.clientPreface]
        var lorises = try (0..<connections).map { _ in try RawHTTP2Connection(port: port, readTimeout: .seconds(1)) }
        var sent = Array(repeating: 0, count: connections)
        var closed = 0
        while !stop.flag.load(ordering: .relaxed) {
            for index in lorises.indices {
                let head = heads[index % 2]
                do {
                    try lorises[index].sendRaw([head[sent[index] % head.count]])
                    sent[index] += 1
                } catch RawHTTP2Error.peerClosed {
                    closed += 1
                    lorises[index].close()
                    lorises[index] = try RawHTTP2Connection(port: port, readTimeout: .seconds(1))
                    sent[index] = 0
                }
            }
            // The attack's pace: one byte a second on each connection.
            Thread.sleep(forTimeInterval: 1)
        }
        for loris in lorises { loris.close() }
        return closed
    }
}

/// Tells the slowloris thread to stop.
final class StopFlag: Sendable {
    let flag = Atomic<Bool>(false)
}
