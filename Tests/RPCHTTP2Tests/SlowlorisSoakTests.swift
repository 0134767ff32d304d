import Foundation
import RPCCore
import RPCHTTP2
import Synchronization
import Testing

/// A slowloris beside a bystander, over real sockets: many connections that each send one byte
/// a second, reopened as the server closes them, cost a bystander's calls little. Its name ends
/// in `SoakTests` so that `scripts/test.sh` runs it with the soak, alone, where its timings
/// are not other suites' noise.
@Suite("Soak: a slowloris beside a bystander", .timeLimit(.minutes(2)))
struct SlowlorisSoakTests {
    static let connections = 100
    static let bound = Duration.seconds(2)

    @Test("connections sending one byte a second delay a bystander's p99 by at most 2x, or 5 ms")
    func slowloris() async throws {
        try await withTestServer(configure: { $0.requestHeadTimeout = Self.bound }) { server in
            let port = server.port
            let connection = try await server.connect()
            let client = RPCClient(transport: connection)
            let baseline = try await Self.callDurations(client, for: .seconds(2))
            let stop = StopFlag()
            async let attack = runBlocking { try Self.slowloris(port: port, until: stop) }
            // Longer than the bound, so the server closes connections and the attack reopens them meanwhile.
            let loaded = try await Self.callDurations(client, for: Self.bound * 3)
            stop.flag.store(true, ordering: .relaxed)
            let closedByServer = try await attack
            await connection.close()

            let (base, underAttack) = (Self.p99(baseline), Self.p99(loaded))
            let allowed = max(base * 2, base + .milliseconds(5))
            #expect(underAttack <= allowed, "p99 \(underAttack) under attack, \(base) before (\(loaded.count) and \(baseline.count) calls)")
            #expect(closedByServer >= Self.connections, "the server closed \(closedByServer) of the slow connections")
        }
    }

    /// Unary calls one after another for `duration`; their durations.
    static func callDurations(_ client: RPCClient, for duration: Duration) async throws -> [Duration] {
        let end = ContinuousClock.now + duration
        var durations: [Duration] = []
        while ContinuousClock.now < end {
            let start = ContinuousClock.now
            _ = try await client.unary(Echo.get, EchoRequest(text: "bystander"))
            durations.append(ContinuousClock.now - start)
        }
        return durations
    }

    static func p99(_ durations: [Duration]) -> Duration {
        let sorted = durations.sorted()
        return sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
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
