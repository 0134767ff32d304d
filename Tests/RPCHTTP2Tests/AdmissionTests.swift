import HTTP2TestSupport
import RPCCore
import TestSupport
import Testing

@testable import RPCCallLayer
@testable import RPCHTTP2

/// The bookkeeping behind the connection limits and the call rate limit, without sockets.
@Suite("Connection admission and call rate, as values")
struct AdmissionTests {
    @Test("connections are admitted up to the limits per peer and in all, refused past them, dropped past maxRefusing")
    func admission() {
        var admission = ConnectionAdmission(maxConnections: 3, maxPerPeer: 2, maxRefusing: 1)
        let peerFull = ConnectionAdmission.Decision.refused(.peerFull("10.0.0.1", limit: 2))
        let first = ["10.0.0.1", "10.0.0.1", "10.0.0.1", "10.0.0.2", "10.0.0.3"].map { admission.admit(peer: $0) }
        #expect(first == [.admitted, .admitted, peerFull, .admitted, .dropped], "one refused connection is answered already")
        admission.closed(peerFull, peer: "10.0.0.1")
        let serverFull = admission.admit(peer: "10.0.0.3")
        #expect(serverFull == .refused(.serverFull(limit: 3)))
        admission.closed(.admitted, peer: "10.0.0.1")
        #expect(admission.open == 2)
        #expect(admission.refusing == 1)
        let freed = admission.admit(peer: "10.0.0.1")
        #expect(freed == .admitted, "a freed place is taken again")
        admission.shuttingDown = true
        let late = admission.admit(peer: "10.0.0.4")
        #expect(late == .dropped)
    }

    @Test("the refusal names the peer and the limit, as RESOURCE_EXHAUSTED tooManyConnections")
    func refusalTrailers() {
        let trailers = ConnectionRefusal.peerFull("127.0.0.1", limit: 5).trailers
        #expect(trailers.code == .resourceExhausted)
        #expect(trailers.message == "too many connections from 127.0.0.1 (limit 5)")
        #expect(trailers.detail == ErrorDetail(reason: "tooManyConnections", details: ["limit": .number(5)]))
    }

    @Test("the call rate limiter lets a burst through, then one call per refill")
    func callRate() {
        let clock = ManualClock()
        var limiter = CallRateLimiter(RateLimit(burst: 2, perSecond: 4), clock: clock.rateLimitClock)
        // The burst of 2, then nothing; 0.8 of a token after 200 ms; 1.2 after 300 ms.
        let steps: [Duration] = [.zero, .zero, .zero, .milliseconds(200), .milliseconds(100), .zero]
        let admitted = steps.map { step in
            clock.advance(by: step)
            return limiter.admit()
        }
        #expect(admitted == [true, true, false, false, true, false])
        #expect(limiter.refusal.code == .resourceExhausted)
        #expect(limiter.refusal.detail?.reason == "callRateExceeded")
    }
}
