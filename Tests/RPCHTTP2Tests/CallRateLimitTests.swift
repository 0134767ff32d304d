import HTTP2TestSupport
import RPCCallLayer
import RPCCore
import RPCHTTP2
import TestSupport
import Testing

/// `maxCallRate`: a connection's calls past its token bucket are answered RESOURCE_EXHAUSTED
/// while the connection stays open and serves again once the bucket refilled.
@Suite("Call rate limit per connection", .timeLimit(.minutes(1)))
struct CallRateLimitTests {
    @Test("calls past the burst are RESOURCE_EXHAUSTED; the connection serves again after a refill")
    func burstThenRefill() async throws {
        // 1 token per second on a clock that stands still until moved: of 4 concurrent calls
        // exactly one is over; a second later the bucket holds one token again.
        let clock = ManualClock()
        try await withTestServer(configure: {
            $0.maxCallRate = RateLimit(burst: 3, perSecond: 1)
            $0.callRateClock = clock.rateLimitClock
        }) { server in
            let connection = try await server.connect()
            let client = RPCClient(transport: connection)
            let outcomes = await withTaskGroup(of: Result<EchoResponse, RPCError>.self) { group in
                for index in 0..<4 {
                    group.addTask {
                        do throws(RPCError) {
                            return .success(try await client.unary(Echo.get, EchoRequest(text: "\(index)")))
                        } catch {
                            return .failure(error)
                        }
                    }
                }
                return await group.reduce(into: [Result<EchoResponse, RPCError>]()) { $0.append($1) }
            }
            let failures = outcomes.compactMap { outcome -> RPCError? in
                if case .failure(let error) = outcome { return error }
                return nil
            }
            #expect(outcomes.count - failures.count == 3, "\(outcomes)")
            let refused = try #require(failures.first, "\(outcomes)")
            #expect(failures.count == 1, "\(failures)")
            #expect(refused.code == .resourceExhausted)
            #expect(refused.message == "call rate limit exceeded: at most 1 new calls per second on one connection, 3 at once")
            #expect(refused.detail?.reason == "callRateExceeded")

            // Time passing is what refills the bucket: one second is one token.
            clock.advance(by: .seconds(1))
            #expect(try await client.unary(Echo.get, EchoRequest(text: "refilled")).text == "refilled")
            // Another connection has a bucket of its own.
            #expect(try await server.servesAnotherConnection())
            await connection.close()
        }
    }
}
