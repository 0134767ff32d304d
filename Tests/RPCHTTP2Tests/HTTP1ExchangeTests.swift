import NIOHTTP1
import Testing

@testable import RPCCallLayer
@testable import RPCHTTP2

/// HTTP/1.1's decisions without sockets: where an exchange is, how a head is framed,
/// keep-alive, shutdown, parse errors, and the input rules a head is refused by.
@Suite("HTTP/1.1 exchanges")
struct HTTP1ExchangeTests {
    /// Stands in for a call: the machine only keeps it and compares it by identity.
    final class Call {}

    static let okHead = HTTPResponseHead(version: .http1_1, status: .ok, headers: ["content-type": "application/json"])

    @Test("a keep-alive exchange: the head waits for the body, which it frames with content-length; then idle")
    func keepAlive() throws {
        var exchange = HTTP1Exchange<Call>()
        let call = Call()
        #expect(exchange.isBetweenRequests)
        let served = exchange.requestBegan(call, keepAlive: true, takesBody: true)
        #expect(served)
        #expect(!exchange.isBetweenRequests)
        #expect(exchange.bodyReceiver() === call)
        let toldEnd = exchange.requestEnded()
        #expect(toldEnd === call)
        #expect(exchange.bodyReceiver() == nil, "after its end, nothing more goes to the call")
        let toldAgain = exchange.requestEnded()
        #expect(toldAgain == nil, "the end is told once")
        #expect(exchange.respondingCall == nil)

        guard case .held = exchange.responseHead(Self.okHead, of: call, hasBody: true) else {
            Issue.record("a head with a body to come waits for it")
            return
        }
        #expect(exchange.respondingCall === call && exchange.headIsReady)
        let firstHead = exchange.takeHead(contentLength: 7)
        let head = try #require(firstHead)
        #expect(head.headers["content-length"] == ["7"])
        #expect(head.headers["connection"].isEmpty)
        let secondHead = exchange.takeHead(contentLength: 7)
        #expect(secondHead == nil, "written once")
        guard case .keepOpen(let ended) = exchange.responseWritten() else {
            Issue.record("keep-alive keeps the connection")
            return
        }
        #expect(ended === call)
        #expect(exchange.isBetweenRequests && exchange.call == nil)
    }

    @Test("a streamed response's head has no content-length; a head with no body is written and ends at once")
    func streamedAndEmpty() throws {
        var exchange = HTTP1Exchange<Call>()
        let call = Call()
        _ = exchange.requestBegan(call, keepAlive: true, takesBody: true)
        _ = exchange.responseHead(Self.okHead, of: call, hasBody: true)
        let streamedHead = exchange.takeHead(contentLength: nil)
        let head = try #require(streamedHead)
        #expect(head.headers["content-length"].isEmpty)
        _ = exchange.requestEnded()
        _ = exchange.responseWritten()

        let second = Call()
        _ = exchange.requestBegan(second, keepAlive: true, takesBody: true)
        guard case .writeAndEnd(let empty) = exchange.responseHead(Self.okHead, of: second, hasBody: false) else {
            Issue.record("a head with no body goes at once")
            return
        }
        #expect(empty.headers["content-length"] == ["0"])
        guard case .none = exchange.responseHead(Self.okHead, of: Call(), hasBody: false) else {
            Issue.record("another call's head is ignored")
            return
        }
    }

    @Test("connection: close, a refusal or a shutdown closes after the response, with connection: close in its head")
    func closesAfterResponse() throws {
        for reason in ["request", "refusal", "shutdown"] {
            var exchange = HTTP1Exchange<Call>()
            let call = Call()
            _ = exchange.requestBegan(call, keepAlive: reason != "request", takesBody: true)
            if reason == "refusal" { exchange.closeAfterResponse() }
            if reason == "shutdown" {
                guard case .finishThenClose = exchange.gracefulShutdown() else {
                    Issue.record("a request in flight finishes first")
                    continue
                }
            }
            _ = exchange.responseHead(Self.okHead, of: call, hasBody: true)
            let closingHead = exchange.takeHead(contentLength: 2)
            let head = try #require(closingHead)
            #expect(head.headers["connection"] == ["close"], "\(reason)")
            guard case .close(let ended) = exchange.responseWritten() else {
                Issue.record("\(reason): the connection closes after the response")
                continue
            }
            #expect(ended === call)
            #expect(exchange.isClosing)
            let servesMore = exchange.requestBegan(Call(), keepAlive: true, takesBody: true)
            #expect(!servesMore, "\(reason): nothing more is served")
        }
    }

    @Test("a response written before its request ended: the rest is dropped, and its end makes the connection idle")
    func answeredEarly() {
        var exchange = HTTP1Exchange<Call>()
        let call = Call()
        _ = exchange.requestBegan(call, keepAlive: true, takesBody: true)
        _ = exchange.responseHead(Self.okHead, of: call, hasBody: false)
        _ = exchange.responseWritten()
        #expect(exchange.bodyReceiver() == nil)
        #expect(exchange.isBetweenRequests)
        guard case .discardingBody = exchange.state else {
            Issue.record("the request's rest is dropped")
            return
        }
        let toldEnd = exchange.requestEnded()
        #expect(toldEnd == nil, "its call is not told")
        guard case .idle = exchange.state else {
            Issue.record("its end makes the connection idle")
            return
        }
    }

    @Test("a GET's body parts do not go to its call, its end does")
    func getHasNoBody() {
        var exchange = HTTP1Exchange<Call>()
        let call = Call()
        _ = exchange.requestBegan(call, keepAlive: true, takesBody: false)
        #expect(exchange.bodyReceiver() == nil)
        let toldEnd = exchange.requestEnded()
        #expect(toldEnd === call)
    }

    @Test("a shutdown closes an idle connection now; a parse error is answered unless a response is under way")
    func shutdownAndParseErrors() {
        var idle = HTTP1Exchange<Call>()
        guard case .closeNow = idle.gracefulShutdown() else {
            Issue.record("nothing in flight: close now")
            return
        }
        guard case .none = idle.gracefulShutdown() else {
            Issue.record("closing already")
            return
        }

        var waiting = HTTP1Exchange<Call>()
        _ = waiting.requestBegan(Call(), keepAlive: true, takesBody: true)
        guard case .answerAndClose = waiting.parseFailed() else {
            Issue.record("no response under way: answer the error")
            return
        }
        guard case .none = waiting.parseFailed() else {
            Issue.record("closing already")
            return
        }

        var responding = HTTP1Exchange<Call>()
        let call = Call()
        _ = responding.requestBegan(call, keepAlive: true, takesBody: true)
        _ = responding.responseHead(Self.okHead, of: call, hasBody: true)
        _ = responding.takeHead(contentLength: nil)
        guard case .close = responding.parseFailed() else {
            Issue.record("a response under way: close without answering")
            return
        }
    }

    @Test("a reset closes the connection unless it is clean and no head waits for a body")
    func resets() {
        var exchange = HTTP1Exchange<Call>()
        let call = Call()
        _ = exchange.requestBegan(call, keepAlive: true, takesBody: true)
        #expect(!exchange.mustCloseOnReset(of: call, cleanly: true))
        #expect(exchange.mustCloseOnReset(of: call, cleanly: false))
        #expect(!exchange.mustCloseOnReset(of: Call(), cleanly: false), "another call's reset")
        _ = exchange.responseHead(Self.okHead, of: call, hasBody: true)
        #expect(exchange.mustCloseOnReset(of: call, cleanly: true), "a head announced a body that will not come")
        _ = exchange.takeHead(contentLength: nil)
        #expect(!exchange.mustCloseOnReset(of: call, cleanly: true))
    }

    @Test("HTTP/1.1 refuses smuggling shapes and oversize announcements before the call starts")
    func refusals() {
        func head(_ fields: [(String, String)]) -> HTTPRequestHead {
            HTTPRequestHead(version: .http1_1, method: .POST, uri: "/a/B", headers: HTTPHeaders(fields))
        }
        let fine = RequestHeaders(limit: 1 << 14)
        #expect(HTTP1RequestRefusal.status(of: head([("content-length", "2")]), headers: fine, maxMessageSize: 100) == nil)
        #expect(HTTP1RequestRefusal.status(of: head([("content-length", "2"), ("transfer-encoding", "chunked")]), headers: fine, maxMessageSize: 100) == .badRequest)
        #expect(HTTP1RequestRefusal.status(of: head([("content-length", "2"), ("content-length", "3")]), headers: fine, maxMessageSize: 100) == .badRequest)
        #expect(HTTP1RequestRefusal.status(of: head([("Content-Length", " 2 ,2"), ("content-length", "2")]), headers: fine, maxMessageSize: 100) == nil)
        #expect(HTTP1RequestRefusal.status(of: head([("content-length", "2, 3")]), headers: fine, maxMessageSize: 100) == .badRequest)
        #expect(HTTP1RequestRefusal.status(of: head([("content-length", "")]), headers: fine, maxMessageSize: 100) == .badRequest)
        #expect(HTTP1RequestRefusal.status(of: head([("content-length", "-1")]), headers: fine, maxMessageSize: 100) == .badRequest)
        #expect(HTTP1RequestRefusal.status(of: head([("content-length", "106")]), headers: fine, maxMessageSize: 100) == .payloadTooLarge)
        var overflowed = RequestHeaders(limit: 40)
        var name = "x-long"
        var value = String(repeating: "a", count: 100)
        name.withUTF8 { n in value.withUTF8 { v in overflowed.append(name: UnsafeRawBufferPointer(n), value: UnsafeRawBufferPointer(v)) } }
        #expect(HTTP1RequestRefusal.status(of: head([]), headers: overflowed, maxMessageSize: 100) == .requestHeaderFieldsTooLarge)
    }
}
