import RPCCore
import Synchronization
import Testing

@Suite("Route.answer: inline routes")
struct InlineRouteAnswerTests {
    typealias Item = TestService.Item

    struct Unexpected: Error {}

    /// Counts wakes across threads.
    final class Counter: Sendable {
        private let value = Mutex(0)
        func increment() { value.withLock { $0 += 1 } }
        var count: Int { value.withLock { $0 } }
    }

    /// A source that only keeps its waker.
    final class WakingSource: ResponseSource {
        let waker: ResponseWaker
        init(waker: ResponseWaker) { self.waker = waker }
        func next() -> ResponsePull { .idle }
        func streamClosed() {}
    }

    /// The route of `TestService.getItem` registered inline with `handler`.
    func inlineRoute(_ handler: @escaping @Sendable (TestService.GetItemRequest, ServerContext) throws -> Item) throws -> Route {
        var router = Router()
        router.register(TestService.getItem, .inline(handler))
        return try #require(router.route(for: TestService.getItem.descriptor.path))
    }

    /// For unary routes, which never ask for a waker.
    let noWaker = { () -> ResponseWaker in
        Issue.record("a unary route asked for a waker")
        return ResponseWaker {}
    }

    let head = RequestHead(path: "/test", contentType: .grpcJSON, metadata: ["x-user": "ada"], deadline: nil, peer: "fake-peer")

    @Test("answers with the encoded response, the handler's metadata and OK")
    func answer() throws {
        let route = try inlineRoute { request, context in
            #expect(context.requestMetadata.first("x-user") == "ada")
            #expect(context.peer == "fake-peer")
            context.addInitialMetadata("x-initial", "i")
            context.addTrailingMetadata("x-trailing", "t")
            return Item(id: request.id, name: "item \(request.id)")
        }
        #expect(route.runsInline)
        let answer = try #require(route.answer(request: Array(#"{"id": 7}"#.utf8), more: false, head: head, waker: noWaker).finished)
        let message = try #require(answer.message)
        #expect(try JSONCodec.shared.decode(Item.self, from: message) == Item(id: 7, name: "item 7"))
        #expect(answer.trailers == .ok(["x-trailing": "t"]))
        #expect(answer.initialMetadata == ["x-initial": "i"])
    }

    @Test("a missing message, a second message and a bad body are INVALID_ARGUMENT, with no handler call")
    func badRequests() throws {
        let route = try inlineRoute { _, _ in
            Issue.record("the handler must not run")
            throw Unexpected()
        }
        let cases: [(request: [UInt8]?, more: Bool, reason: String)] = [
            (nil, false, "missingMessage"),
            (Array(#"{"id": 1}"#.utf8), true, "tooManyMessages"),
            (Array("{not json".utf8), false, "invalidMessage"),
            (Array(#"{"id": "one"}"#.utf8), false, "invalidField"),
        ]
        for (request, more, reason) in cases {
            let answer = try #require(route.answer(request: request, more: more, head: head, waker: noWaker).finished)
            #expect(answer.message == nil)
            #expect(answer.trailers.code == .invalidArgument)
            #expect(answer.trailers.detail?.reason == reason)
        }
    }

    @Test("the handler's RPCError is the call's status; any other error is UNKNOWN")
    func handlerErrors() throws {
        let failing = try inlineRoute { _, _ in throw RPCError(.notFound, "no item 7", detail: ErrorDetail(reason: "notFound")) }
        let notFound = try #require(failing.answer(request: Array(#"{"id": 7}"#.utf8), more: false, head: head, waker: noWaker).finished)
        #expect(notFound.trailers.code == .notFound)
        #expect(notFound.trailers.message == "no item 7")
        #expect(notFound.trailers.detail?.reason == "notFound")

        let unexpected = try inlineRoute { _, _ in throw Unexpected() }
        let unknown = unexpected.answer(request: Array(#"{"id": 7}"#.utf8), more: false, head: head, waker: noWaker).finished
        #expect(unknown?.trailers.code == .unknown)
    }

    @Test("run(_:) serves an inline route too, for transports that answer every call from a task")
    func runInTask() async throws {
        let route = try inlineRoute { request, context in
            context.addTrailingMetadata("x-trailing", "t")
            return Item(id: request.id, name: "from a task")
        }
        let stream = FakeServerCallStream(jsonRequests: [#"{"id": 3}"#])
        await route.run(stream)
        try #require(stream.finished.count == 1)
        let finish = stream.finished[0]
        #expect(try JSONCodec.shared.decode(Item.self, from: try #require(finish.lastMessage)) == Item(id: 3, name: "from a task"))
        #expect(finish.trailers == .ok(["x-trailing": "t"]))

        let twoMessages = FakeServerCallStream(jsonRequests: [#"{"id": 3}"#, #"{"id": 4}"#])
        await route.run(twoMessages)
        #expect(twoMessages.finished.map(\.trailers.detail?.reason) == ["tooManyMessages"])
    }

    @Test("an inline subscription answers with its source, which holds the transport's waker")
    func subscription() throws {
        var router = Router()
        router.register(TestService.listItems, .inline(source: { (request: TestService.ListItemsRequest, context, waker) -> any ResponseSource in
            if request.count < 0 { throw RPCError(.invalidArgument, "negative count") }
            context.addInitialMetadata("x-initial", "i")
            return WakingSource(waker: waker)
        }))
        let route = try #require(router.route(for: TestService.listItems.descriptor.path))
        #expect(route.runsInline)
        let wakes = Counter()
        let answer = route.answer(request: Array(#"{"count": 2}"#.utf8), more: false, head: head) {
            ResponseWaker { wakes.increment() }
        }
        guard case .source(let source, let initialMetadata) = answer else {
            Issue.record("expected a source, got \(answer)")
            return
        }
        #expect(initialMetadata == ["x-initial": "i"])
        (source as? WakingSource)?.waker.wake()
        #expect(wakes.count == 1)

        let refused = route.answer(request: Array(#"{"count": -1}"#.utf8), more: false, head: head) { ResponseWaker {} }
        #expect(refused.finished?.trailers.code == .invalidArgument)
    }

    @Test("a task route does not run inline")
    func taskRoute() throws {
        var router = Router()
        router.register(TestService.getItem, .task { request, _ in Item(id: request.id, name: "") })
        #expect(try #require(router.route(for: TestService.getItem.descriptor.path)).runsInline == false)
    }
}

extension InlineAnswer {
    /// The parts of a `finished` answer; `nil` for a source.
    var finished: (message: [UInt8]?, initialMetadata: Metadata, trailers: ResponseTrailers)? {
        guard case .finished(let message, let initialMetadata, let trailers) = self else { return nil }
        return (message, initialMetadata, trailers)
    }
}
