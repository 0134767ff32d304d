import CatalogAPI
import RPCCore
import RPCHTTP2

/// Well-behaved callers: each lane is one connection making sequential unary calls, GetItem
/// and Health/Check in turn, one every `interval`, and times every call.
struct HonestClient: Sendable {
    var port: Int
    var lanes: Int
    var interval: Duration
    static let callOptions = CallOptions(timeout: .seconds(5))

    /// Calls until `duration` has passed; returns every lane's latencies and failures.
    func run(for duration: Duration) async -> LatencySample {
        let end = ContinuousClock.now + duration
        return await withTaskGroup(of: LatencySample.self) { group in
            for _ in 0..<lanes {
                group.addTask { await lane(until: end) }
            }
            return await group.reduce(LatencySample(), +)
        }
    }

    private func lane(until end: ContinuousClock.Instant) async -> LatencySample {
        var sample = LatencySample()
        var connection: HTTP2ClientConnection?
        var next = ContinuousClock.now
        var step = 0
        while next < end {
            try? await Task.sleep(until: next)
            next = max(next + interval, .now)
            step += 1
            let started = ContinuousClock.now
            do throws(RPCError) {
                let open: HTTP2ClientConnection
                if let connection {
                    open = connection
                } else {
                    open = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port)
                    connection = open
                }
                let client = RPCClient(transport: open)
                if step.isMultiple(of: 2) {
                    _ = try await client.unary(Health.check, HealthCheckRequest(), options: Self.callOptions)
                } else {
                    _ = try await client.unary(CatalogService.getItem, IDRequest(id: 1), options: Self.callOptions)
                }
                sample.latencies.append(started.duration(to: .now))
            } catch {
                sample.failed += 1
                if error.code == .unavailable, let lost = connection {
                    await lost.close()
                    connection = nil
                    sample.reconnects += 1
                }
            }
        }
        await connection?.close()
        return sample
    }
}
