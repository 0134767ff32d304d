import InMemoryLogging
import Logging
import Testing

@testable import RPCCallLayer
@testable import RPCHTTP2

@Suite("Warnings a peer can provoke are rate-limited")
struct WarningThrottleTests {
    @Test("past the burst warnings are held back and counted, and the next one let through says how many")
    func holdsBackAndCounts() {
        let log = InMemoryLogHandler()
        let start = ContinuousClock.now
        let throttle = WarningThrottle(RateLimit(burst: 3, perSecond: 1), now: start)
        for index in 0..<10 {
            throttle.warning("closing abusive connection", metadata: ["index": "\(index)"], on: log.logger, now: start)
        }
        #expect(log.entries.map(\.metadata["index"]) == ["0", "1", "2"])
        #expect(log.entries.allSatisfy { $0.level == .warning && $0.metadata["suppressed"] == nil })

        throttle.warning("closing abusive connection", metadata: ["index": "10"], on: log.logger, now: start + .seconds(2))
        let last = log.entries.last
        #expect(last?.metadata["index"] == "10")
        #expect(last?.metadata["suppressed"] == "7", "the 7 held back since the last one let through")

        throttle.warning("closing abusive connection", metadata: ["index": "11"], on: log.logger, now: start + .seconds(2))
        #expect(log.entries.last?.metadata["index"] == "11")
        #expect(log.entries.last?.metadata["suppressed"] == nil, "the count starts over")
    }
}
