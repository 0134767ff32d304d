import Testing

@testable import RPCCallLayer
@testable import RPCHTTP2

@Suite("TimeoutSweep: request and send timeouts counted in sweeps")
struct TimeoutSweepTests {
    @Test("a request open for more sweeps than its timeout's times out; an ended one never does")
    func requestTimeout() {
        var watch = TimeoutSweep()
        for _ in 0..<3 { #expect(watch.sweep(requestOpen: true, responseWaiting: false, requestSweeps: 3, stallSweeps: nil) == nil) }
        #expect(watch.sweep(requestOpen: true, responseWaiting: false, requestSweeps: 3, stallSweeps: nil) == .requestTimedOut)
        var ended = TimeoutSweep()
        for _ in 0..<10 { #expect(ended.sweep(requestOpen: false, responseWaiting: false, requestSweeps: 3, stallSweeps: nil) == nil) }
    }

    @Test("response bytes waiting with none sent for more sweeps than the timeout stall; any byte sent starts the count again")
    func sendStall() {
        var watch = TimeoutSweep()
        #expect(watch.sweep(requestOpen: false, responseWaiting: true, requestSweeps: nil, stallSweeps: 2) == nil)
        #expect(watch.sweep(requestOpen: false, responseWaiting: true, requestSweeps: nil, stallSweeps: 2) == nil)
        watch.sent()
        #expect(watch.sweep(requestOpen: false, responseWaiting: true, requestSweeps: nil, stallSweeps: 2) == nil)
        #expect(watch.sweep(requestOpen: false, responseWaiting: true, requestSweeps: nil, stallSweeps: 2) == nil)
        #expect(watch.sweep(requestOpen: false, responseWaiting: true, requestSweeps: nil, stallSweeps: 2) == nil)
        #expect(watch.sweep(requestOpen: false, responseWaiting: true, requestSweeps: nil, stallSweeps: 2) == .sendStalled)
        var drained = TimeoutSweep()
        for _ in 0..<10 { #expect(drained.sweep(requestOpen: false, responseWaiting: false, requestSweeps: nil, stallSweeps: 2) == nil) }
    }

    @Test("sweeps come at a quarter of the shortest timeout, within 10 ms and 1 s, and cover each timeout", arguments: [
        (Duration.seconds(30), Duration?.some(.seconds(30)), Duration.seconds(1), 30, 30),
        (.milliseconds(400), nil, .milliseconds(100), 4, nil),
        (.milliseconds(20), .seconds(1), .milliseconds(10), 2, 100),
        (.seconds(Int64.max), .seconds(2), .milliseconds(500), Int.max / 2, 4),
    ] as [(Duration, Duration?, Duration, Int, Int?)])
    func schedule(request: Duration, stall: Duration?, interval: Duration, requestSweeps: Int, stallSweeps: Int?) throws {
        let schedule = try #require(TimeoutSweepSchedule(requestBodyTimeout: request, sendStallTimeout: stall))
        #expect(schedule.interval == interval)
        #expect(schedule.requestSweeps == requestSweeps)
        #expect(schedule.stallSweeps == stallSweeps)
    }

    @Test("no timeout, no sweeps")
    func noSchedule() {
        #expect(TimeoutSweepSchedule(requestBodyTimeout: nil, sendStallTimeout: nil) == nil)
    }
}
