import RPCCore
import Testing

@testable import RPCHTTP2
@testable import RPCHTTP2Client
@testable import RPCHTTP2Core

@Suite("Client stream state machine")
struct ClientStreamStateMachineTests {
    typealias Machine = ClientStream.StateMachine

    /// A header block of `fields`, as nghttp2 reports it field by field.
    static func block(_ fields: [(String, String)]) -> HeaderList {
        var list = HeaderList(limit: 64 * 1024)
        for (name, value) in fields {
            Array(name.utf8).withUnsafeBytes { name in
                Array(value.utf8).withUnsafeBytes { value in list.append(name: name, value: value) }
            }
        }
        return list
    }

    static let responseHeaders = block([(":status", "200"), ("content-type", "application/grpc"), ("x-served-by", "a")])
    static let okTrailers = block([("grpc-status", "0"), ("x-cost", "3")])

    @Test("headers, then trailers: messages between, the status from the trailers")
    func response() {
        var machine = Machine()
        let onHeaders = machine.receivedHeaders(Self.responseHeaders, endStream: false)
        #expect(onHeaders == .receiveMessages(initialMetadata: ["x-served-by": "a"], compression: .identity))
        #expect(machine.response == .receivingMessages)
        #expect(machine.receivedHeaders(Self.okTrailers, endStream: false) == .none, "a block without END_STREAM is not trailers")
        let onTrailers = machine.receivedHeaders(Self.okTrailers, endStream: true)
        #expect(onTrailers == .end(initialMetadata: nil, trailers: ResponseTrailers(code: .ok, metadata: ["x-cost": "3"])))
        #expect(machine.isFinished)
        #expect(machine.receivedHeaders(Self.okTrailers, endStream: true) == .none, "after the end, nothing")
        #expect(machine.end() == false)
    }

    @Test("trailers-only: one block carries the initial metadata and the status")
    func trailersOnly() {
        var machine = Machine()
        let fields = [(":status", "200"), ("content-type", "application/grpc"), ("grpc-status", "5"), ("grpc-message", "gone")]
        let action = machine.receivedHeaders(Self.block(fields), endStream: true)
        guard case .end(let initialMetadata?, let trailers) = action else {
            Issue.record("\(action)")
            return
        }
        #expect(initialMetadata.isEmpty)
        #expect(trailers.code == .notFound && trailers.message == "gone")
        #expect(machine.isFinished)
    }

    @Test("a response that is not gRPC fails the call, named by its HTTP status or content type")
    func notGRPC() {
        let cases: [([(String, String)], StatusCode)] = [
            ([(":status", "404")], .unimplemented),
            ([(":status", "503")], .unavailable),
            ([(":status", "401")], .unauthenticated),
            ([(":status", "302")], .unknown),
            ([(":status", "200"), ("content-type", "text/html")], .internalError),
            ([(":status", "200"), ("content-type", "application/grpc"), ("grpc-encoding", "br")], .internalError),
        ]
        for (fields, code) in cases {
            var machine = Machine()
            let action = machine.receivedHeaders(Self.block(fields), endStream: false)
            guard case .fail(let error) = action else {
                Issue.record("\(fields): \(action)")
                continue
            }
            #expect(error.code == code, "\(fields): \(error)")
            #expect(machine.isFinished)
        }
    }

    @Test("an answer in another codec than the request's fails the call; the same codec under another name does not")
    func answeredInAnotherCodec() {
        for (requestCodec, answered, fails) in [
            ("cbor", "application/grpc+json", true), ("json", "application/grpc+cbor", true), ("cbor", "application/grpc", true),
            ("json", "application/grpc+json", false), ("json", "application/grpc", false), ("cbor", "application/grpc+cbor", false),
            ("json", "application/grpc+proto", false),
        ] {
            var machine = Machine()
            machine.requestCodec = requestCodec
            let action = machine.receivedHeaders(Self.block([(":status", "200"), ("content-type", answered)]), endStream: false)
            if case .fail(let error) = action {
                #expect(fails, "\(requestCodec) answered as \(answered): \(error)")
                #expect(error.code == .internalError && error.message.contains(answered))
            } else {
                #expect(!fails, "\(requestCodec) answered as \(answered): \(action)")
            }
        }
    }

    @Test("a compressed response names its algorithm for the deframer")
    func compressed() {
        var machine = Machine()
        let fields = [(":status", "200"), ("content-type", "application/grpc"), ("grpc-encoding", "gzip")]
        #expect(machine.receivedHeaders(Self.block(fields), endStream: false) == .receiveMessages(initialMetadata: [:], compression: .gzip))
    }

    @Test("the first end wins: a later reset or trailers change nothing")
    func firstEndWins() {
        var machine = Machine()
        #expect(machine.end() == true, "a deadline")
        #expect(machine.streamClosed(errorCode: HTTP2ErrorCode.cancel) == nil)
        #expect(machine.receivedHeaders(Self.responseHeaders, endStream: true) == .none)
    }

    @Test("a stream closed without trailers fails the call, named by the reset code")
    func closedWithoutTrailers() {
        let cases: [(UInt32, StatusCode)] = [
            (HTTP2ErrorCode.refusedStream, .unavailable),
            (HTTP2ErrorCode.cancel, .cancelled),
            (HTTP2ErrorCode.enhanceYourCalm, .resourceExhausted),
            (HTTP2ErrorCode.noError, .internalError),
            (HTTP2ErrorCode.protocolError, .internalError),
        ]
        for (errorCode, code) in cases {
            var machine = Machine()
            _ = machine.receivedHeaders(Self.responseHeaders, endStream: false)
            let error = machine.streamClosed(errorCode: errorCode)
            #expect(error?.code == code, "\(errorCode)")
            if code == .internalError {
                #expect(error?.detail?.reason == ErrorDetail.streamResetReason, "a reset without a status says so")
                #expect(error?.detail?.details?["http2ErrorCode"] == .number(Double(errorCode)))
            }
        }
    }

    @Test("an answer that comes before the request ended stops the request; one after does not")
    func earlyAnswer() {
        var early = Machine()
        early.messageQueued(endOfStream: false)
        _ = early.receivedHeaders(Self.block([(":status", "200"), ("content-type", "application/grpc"), ("grpc-status", "3")]), endStream: true)
        #expect(early.stopsRequest)

        var late = Machine()
        late.messageQueued(endOfStream: true)
        #expect(late.requestEnded)
        _ = late.receivedHeaders(Self.responseHeaders, endStream: false)
        _ = late.receivedHeaders(Self.okTrailers, endStream: true)
        #expect(!late.stopsRequest)
    }
}
