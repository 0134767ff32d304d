import RPCCore
import Synchronization
import Testing

@Suite("MethodHandler.inline(responder:): inline unary calls answered now or later")
struct UnaryResponderTests {
    typealias Item = TestService.Item

    /// Counts wakes across threads.
    final class Counter: Sendable {
        private let value = Mutex(0)
        func increment() { value.withLock { $0 += 1 } }
        var count: Int { value.withLock { $0 } }
    }

    /// Keeps a responder for the test to answer with later.
    final class Keeper: Sendable {
        private let kept = Mutex<UnaryResponder<Item>?>(nil)
        func keep(_ responder: UnaryResponder<Item>) { kept.withLock { $0 = responder } }
        var responder: UnaryResponder<Item>? { kept.withLock { $0 } }
    }

    let head = RequestHead(path: "/test", contentType: .grpcJSON, metadata: [:], deadline: nil, peer: "fake-peer")
    let request = Array(#"{"id": 7}"#.utf8)

    func route(_ handler: @escaping @Sendable (TestService.GetItemRequest, ServerContext, UnaryResponder<Item>) throws -> Void)
        throws -> Route
    {
        var router = Router()
        router.register(TestService.getItem, .inline(responder: handler))
        return try #require(router.route(for: TestService.getItem.descriptor.path))
    }

    /// Everything the source gives until it is idle or ends.
    func pullAll(_ source: any ResponseSource) -> (messages: [[UInt8]], end: ResponseTrailers?) {
        var messages: [[UInt8]] = []
        while true {
            switch source.next() {
            case .message(let message): messages.append(message)
            case .idle: return (messages, nil)
            case .end(let trailers): return (messages, trailers)
            }
        }
    }

    func source(of answer: InlineAnswer) throws -> any ResponseSource {
        guard case .source(let source, _) = answer else { throw RPCError(.internalError, "expected a source, got \(answer)") }
        return source
    }

    @Test("an answer given before the handler returns is there at the first pull, with no wake")
    func answeredAtOnce() throws {
        let route = try route { request, context, responder in
            context.addTrailingMetadata("x-trailing", "t")
            responder.succeed(Item(id: request.id, name: "now"))
        }
        #expect(route.runsInline)
        let wakes = Counter()
        let source = try source(of: route.answer(request: request, more: false, head: head) { ResponseWaker { wakes.increment() } })
        let pulled = pullAll(source)
        #expect(pulled.messages.count == 1)
        #expect(try JSONCodec.shared.decode(Item.self, from: pulled.messages[0]) == Item(id: 7, name: "now"))
        #expect(pulled.end == .ok(["x-trailing": "t"]))
        #expect(wakes.count == 0)
    }

    @Test("a later answer, from another thread, wakes the transport once and is what it pulls next")
    func answeredLater() async throws {
        let keeper = Keeper()
        let route = try route { _, _, responder in keeper.keep(responder) }
        let wakes = Counter()
        let source = try source(of: route.answer(request: request, more: false, head: head) { ResponseWaker { wakes.increment() } })
        #expect(pullAll(source).messages.isEmpty)
        #expect(pullAll(source).end == nil)

        let responder = try #require(keeper.responder)
        await Task.detached { responder.succeed(Item(id: 8, name: "later")) }.value
        #expect(wakes.count == 1)
        responder.fail(RPCError(.internalError, "a second answer"))
        #expect(wakes.count == 1)

        let pulled = pullAll(source)
        #expect(pulled.messages.map { try? JSONCodec.shared.decode(Item.self, from: $0) } == [Item(id: 8, name: "later")])
        #expect(pulled.end == .ok([:]))
    }

    @Test("a failure, now or later, ends the call with its status and no message")
    func failures() async throws {
        let failNow = try route { _, _, responder in
            responder.fail(RPCError(.notFound, "no item 7", detail: ErrorDetail(reason: "notFound")))
        }
        let now = pullAll(try source(of: failNow.answer(request: request, more: false, head: head) { ResponseWaker {} }))
        #expect(now.messages.isEmpty)
        #expect(now.end?.code == .notFound)
        #expect(now.end?.detail?.reason == "notFound")

        let keeper = Keeper()
        let failLater = try route { _, _, responder in keeper.keep(responder) }
        let later = try source(of: failLater.answer(request: request, more: false, head: head) { ResponseWaker {} })
        try #require(keeper.responder).complete(Result<Item, RPCError>.failure(RPCError(.aborted, "conflict")))
        let pulled = pullAll(later)
        #expect(pulled.messages.isEmpty)
        #expect(pulled.end?.code == .aborted)
        #expect(pulled.end?.message == "conflict")
    }

    @Test("a handler that throws answers with its error; a bad request never reaches it")
    func thrownAndBadRequests() throws {
        let throwing = try route { _, _, _ in throw RPCError(.invalidArgument, "bad id") }
        #expect(throwing.answer(request: request, more: false, head: head) { ResponseWaker {} }.finished?.trailers.code == .invalidArgument)

        let untouched = try route { _, _, _ in Issue.record("the handler must not run") }
        for (body, more) in [(Array("{not json".utf8), false), (request, true)] {
            #expect(untouched.answer(request: body, more: more, head: head) { ResponseWaker {} }.finished?.trailers.code == .invalidArgument)
        }
    }
}
