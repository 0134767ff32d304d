import Testing

@testable import RPCHTTP2

@Suite("Server connection state machine")
struct ServerConnectionStateMachineTests {
    typealias Machine = ServerConnectionHandler.StateMachine

    @Test("an accepted connection serves once active, and only once")
    func serves() {
        var machine = Machine(refused: false)
        #expect(machine.isOpen)
        var onActive = machine.channelActive()
        #expect(onActive == .startTimers)
        #expect(machine.state == .serving)
        onActive = machine.channelActive()
        #expect(onActive == .none)
        let afterRead = machine.readComplete()
        #expect(afterRead == .flush)
    }

    @Test("graceful shutdown drains: the final GOAWAY follows the first PING ack, once")
    func drains() {
        var machine = Machine(refused: false)
        _ = machine.channelActive()
        var sendsFinalGoAway = machine.pingAcknowledged()
        #expect(sendsFinalGoAway == false, "a keepalive ack while serving sends no GOAWAY")
        var drainsNow = machine.gracefulShutdownRequested()
        #expect(drainsNow)
        #expect(machine.state == .draining(finalGoAwaySent: false))
        drainsNow = machine.gracefulShutdownRequested()
        #expect(drainsNow == false, "asking twice drains once")
        sendsFinalGoAway = machine.pingAcknowledged()
        #expect(sendsFinalGoAway)
        sendsFinalGoAway = machine.pingAcknowledged()
        #expect(sendsFinalGoAway == false)
        #expect(machine.isOpen, "in-flight calls still finish")
        let closes = machine.close()
        #expect(closes)
        #expect(!machine.isOpen)
    }

    @Test("a shutdown asked for before the connection is active drains it when it becomes active")
    func shutdownBeforeActive() {
        var machine = Machine(refused: false)
        let drainsNow = machine.gracefulShutdownRequested()
        #expect(drainsNow == false)
        #expect(machine.state == .waiting(drainRequested: true))
        let onActive = machine.channelActive()
        #expect(onActive == .startTimersAndDrain)
        #expect(machine.state == .draining(finalGoAwaySent: false))
        let sendsFinalGoAway = machine.pingAcknowledged()
        #expect(sendsFinalGoAway)
    }

    @Test("a refused connection answers, then ends after the read that answered")
    func refusedAnswered() {
        var machine = Machine(refused: true)
        var drainsNow = machine.gracefulShutdownRequested()
        #expect(drainsNow == false)
        let onActive = machine.channelActive()
        #expect(onActive == .armRefusalTimer)
        drainsNow = machine.gracefulShutdownRequested()
        #expect(drainsNow == false, "a refused connection does not drain")
        var afterRead = machine.readComplete()
        #expect(afterRead == .flush, "nothing answered yet")
        machine.refusalAnswered()
        afterRead = machine.readComplete()
        #expect(afterRead == .endRefusal)
        #expect(!machine.isOpen)
        afterRead = machine.readComplete()
        #expect(afterRead == .none)
        let onRefusalTimer = machine.refusalTimerFired()
        #expect(onRefusalTimer == .close)
    }

    @Test("a refused connection that sends nothing gets its GOAWAY when the refusal timer fires")
    func refusedSilent() {
        var machine = Machine(refused: true)
        _ = machine.channelActive()
        let onRefusalTimer = machine.refusalTimerFired()
        #expect(onRefusalTimer == .goAwayAndClose)
        #expect(!machine.isOpen)
    }

    @Test("closing happens once, whatever asks for it; then nothing is handled")
    func closesOnce() {
        var machine = Machine(refused: false)
        _ = machine.channelActive()
        var closes = machine.close()
        #expect(closes)
        closes = machine.close()
        #expect(closes == false)
        let closesNow = machine.sessionFinished()
        #expect(closesNow == false)
        let drainsNow = machine.gracefulShutdownRequested()
        #expect(drainsNow == false)
        let sendsFinalGoAway = machine.pingAcknowledged()
        #expect(sendsFinalGoAway == false)
        let afterRead = machine.readComplete()
        #expect(afterRead == .none)
    }

    @Test("a finished session closes the connection; an inactive channel closes every state", arguments: [false, true])
    func finishedAndInactive(refused: Bool) {
        var finished = Machine(refused: refused)
        _ = finished.channelActive()
        let closesNow = finished.sessionFinished()
        #expect(closesNow)
        var inactive = Machine(refused: refused)
        inactive.channelInactive()
        #expect(!inactive.isOpen)
        let onActive = inactive.channelActive()
        #expect(onActive == .none)
    }
}
