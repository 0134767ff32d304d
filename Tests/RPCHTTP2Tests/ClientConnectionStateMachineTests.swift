import Testing

@testable import RPCHTTP2
@testable import RPCHTTP2Client

@Suite("Client connection state machine")
struct ClientConnectionStateMachineTests {
    typealias Machine = ClientConnectionHandler.StateMachine

    @Test("calls start while open; only the server's first bytes are checked for TLS")
    func open() {
        var machine = Machine()
        #expect(machine.unavailableReason == nil)
        #expect(!machine.heardFromServer)
        var first = machine.bytesReceived()
        #expect(first)
        first = machine.bytesReceived()
        #expect(!first)
        #expect(machine.heardFromServer)
        #expect(!machine.shouldClose(openStreams: 0))
    }

    @Test("closing sends GOAWAY once, refuses new calls, and closes when the last stream ends")
    func closes() {
        var machine = Machine()
        var sendsGoAway = machine.closeRequested()
        #expect(sendsGoAway)
        sendsGoAway = machine.closeRequested()
        #expect(!sendsGoAway)
        #expect(machine.unavailableReason == "the connection is closing")
        #expect(!machine.shouldClose(openStreams: 2))
        #expect(machine.shouldClose(openStreams: 0))
    }

    @Test("the server's GOAWAY is the reason calls are refused, even after another")
    func goAway() {
        var machine = Machine()
        machine.failed("connection error: reset")
        machine.goAwayReceived(errorCode: 11, debugData: "too many connections")
        #expect(machine.unavailableReason == "the server is going away (GOAWAY code 11: too many connections)")
        machine.goAwayReceived(errorCode: 0, debugData: "")
        #expect(machine.unavailableReason == "the server is going away (GOAWAY code 0)")
        let sendsGoAway = machine.closeRequested()
        #expect(!sendsGoAway)
    }

    @Test("the first failure stays the reason")
    func failures() {
        var machine = Machine()
        machine.failed("keepalive PING unanswered")
        machine.failed("the connection closed")
        #expect(machine.unavailableReason == "keepalive PING unanswered")
    }

    @Test("bytes that first arrive after closing began are still the first")
    func firstBytesWhileClosing() {
        var machine = Machine()
        _ = machine.closeRequested()
        let first = machine.bytesReceived()
        #expect(first)
        #expect(machine.heardFromServer)
        #expect(machine.unavailableReason == "the connection is closing")
    }
}
