import RPCCore
import Testing

@testable import RPCHTTP2

/// The bookkeeping behind the connection limits, without sockets.
@Suite("Connection admission, as values")
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

}
