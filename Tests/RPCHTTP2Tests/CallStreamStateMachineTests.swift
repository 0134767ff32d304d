import RPCCore
import Testing

@testable import RPCCallLayer
@testable import RPCHTTP2

@Suite("Server stream state machine")
struct CallStreamStateMachineTests {
    typealias Machine = CallStream.StateMachine

    /// A machine whose call started.
    static func started() -> Machine {
        var machine = Machine()
        machine.callStarted()
        return machine
    }

    @Test("the request head arrives, then the body; a header block after the start is trailers")
    func requestHalf() {
        var machine = Machine()
        #expect(!machine.isStarted)
        #expect(!machine.takesRequestBody, "no deframer before the call starts")
        machine.callStarted()
        #expect(machine.isStarted)
        #expect(machine.takesRequestBody)
        #expect(machine.clientEndedStream() == true, "END_STREAM while the body arrives: the deframer checks the end")
        #expect(machine.clientEnded)
        #expect(machine.requestEnded() == true, "the reader is told once")
        #expect(machine.requestEnded() == false)
        #expect(!machine.takesRequestBody)
        #expect(machine.request == .ended)
    }

    @Test("a failed request tells the reader once; the client's END_STREAM after it checks nothing")
    func requestFailure() {
        var machine = Self.started()
        #expect(machine.requestEnded() == true)
        #expect(!machine.clientEnded)
        #expect(machine.clientEndedStream() == false)
        #expect(machine.clientEnded)
    }

    @Test("a streamed response: headers once, then the trailers once the body is sent")
    func streamedResponse() {
        var machine = Self.started()
        #expect(machine.messageQueued() == true, "the first message submits the response headers")
        #expect(machine.messageQueued() == false)
        #expect(machine.responseStarted && !machine.isFinished)
        #expect(machine.bodySent() == .none, "no trailers while the call runs")
        #expect(machine.finish(withMessage: false) == .drain(submitHeaders: false))
        #expect(machine.isFinished)
        #expect(!machine.takesRequestBody, "request bytes after the response finished are dropped")
        #expect(machine.finish(withMessage: true) == .none, "the first finish wins")
        machine.trailersFollowBody(.ok())
        #expect(machine.response == .draining(trailers: .ok()), "the trailers wait in the state")
        #expect(machine.bodySent() == .sendTrailers(.ok()))
        #expect(machine.bodySent() == .none, "trailers go once")
        #expect(machine.response == .ended)
    }

    @Test("a unary answer: one finish with its message submits the headers, the body, then the trailers")
    func unaryAnswer() {
        var machine = Self.started()
        #expect(machine.finish(withMessage: true) == .drain(submitHeaders: true))
        #expect(machine.response == .draining(trailers: nil))
        #expect(machine.bodySent() == .ended, "with no trailers (gRPC-Web, Connect) the body's end ends the response")
    }

    @Test("a finish with no message before any is trailers-only, and ends the response at once")
    func trailersOnly() {
        var machine = Self.started()
        #expect(machine.finish(withMessage: false) == .trailersOnly)
        #expect(machine.response == .ended)
        #expect(machine.bodySent() == .none, "no second header block")
        machine.trailersFollowBody(.ok())
        #expect(machine.response == .ended, "an ended response takes no trailers")
        #expect(machine.streamClosed() == false, "the end was recorded by the finish")
    }

    @Test("a call answered before it started is complete: nothing more is sent and its end is not recorded again")
    func answeredBeforeStart() {
        var machine = Machine()
        machine.answeredBeforeStart()
        #expect(machine.isStarted, "a header block after the answer is trailers")
        #expect(machine.response == .ended)
        #expect(!machine.takesRequestBody)
        #expect(machine.requestEnded() == false, "there is no reader to tell")
        #expect(machine.clientEndedStream() == false)
        #expect(machine.finish(withMessage: false) == .none)
        #expect(machine.abandon() == .reset(recordsEnd: false), "a timed-out request is reset, never answered twice")
        #expect(machine.streamClosed() == false)
    }

    @Test("abandoned before any response: trailers-only; after: RST_STREAM, recording the end only if the call had not")
    func abandon() {
        var idle = Self.started()
        #expect(idle.abandon() == .trailersOnly)
        #expect(idle.response == .ended)

        var streaming = Self.started()
        _ = streaming.messageQueued()
        #expect(streaming.abandon() == .reset(recordsEnd: true))
        #expect(streaming.bodySent() == .none)

        var draining = Self.started()
        _ = draining.finish(withMessage: true)
        draining.trailersFollowBody(.ok())
        #expect(draining.abandon() == .reset(recordsEnd: false))
        #expect(draining.bodySent() == .none, "the trailers of a reset stream are dropped")
    }

    @Test("a stream that closes records a cancelled end only for a call that had not finished")
    func streamClosed() {
        var running = Self.started()
        _ = running.messageQueued()
        #expect(running.streamClosed() == true)
        #expect(running.streamClosed() == false, "once")
        #expect(running.finish(withMessage: true) == .none, "a late finish sends nothing")

        var notStarted = Machine()
        #expect(notStarted.streamClosed() == true)

        var finished = Self.started()
        _ = finished.finish(withMessage: true)
        #expect(finished.streamClosed() == false)
        #expect(finished.bodySent() == .none)
    }
}
