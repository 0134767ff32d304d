import RPCCore
import Synchronization
import Testing

/// Inline routes as a transport answers them: a handler written without `async` with
/// `Route.answer`, with no task; any other with `Route.serve` in a task that runs at once
/// (`Task.immediate`), so that a handler that does not suspend has answered when the start
/// returns.
@Suite("Route.serve and Route.answer: inline routes", .timeLimit(.minutes(1)))
struct RouteServeTests {
    typealias Item = TestService.Item

    struct Unexpected: Error {}

    /// A source that only keeps its waker.
    final class WakingSource: ResponseSource {
        let waker: ResponseWaker
        init(waker: ResponseWaker) { self.waker = waker }
        func next() -> ResponsePull { .idle }
        func streamClosed() {}
    }

    /// The route of `TestService.getItem` registered inline with `handler`.
    func inlineRoute(_ handler: @escaping @Sendable (TestService.GetItemRequest, ServerContext) async throws -> Item) throws -> Route {
        var router = Router()
        router.register(TestService.getItem, .unary(.inline, handler))
        return try #require(router.route(for: TestService.getItem.descriptor.path))
    }

    /// Starts `route` on `stream` the way a transport starts an inline call.
    func start(_ route: Route, on stream: FakeServerCallStream) {
        Task.immediate { await route.serve(stream) }
    }

    @Test("a handler that does not suspend has answered when its start returns: the response, its metadata and OK")
    func answersBeforeReturning() throws {
        let route = try inlineRoute { request, context in
            #expect(context.requestMetadata.first("x-user") == "ada")
            context.addInitialMetadata("x-initial", "i")
            context.addTrailingMetadata("x-trailing", "t")
            return Item(id: request.id, name: "item \(request.id)")
        }
        #expect(route.runsInline)
        let stream = FakeServerCallStream(jsonRequests: [#"{"id": 7}"#], metadata: ["x-user": "ada"])
        start(route, on: stream)
        try #require(stream.finished.count == 1)
        let finish = stream.finished[0]
        #expect(try JSONCodec.shared.decode(Item.self, from: try #require(finish.lastMessage)) == Item(id: 7, name: "item 7"))
        #expect(finish.trailers == .ok(["x-trailing": "t"]))
        #expect(finish.initialMetadata == ["x-initial": "i"])
    }

    @Test("a missing message, a second message and a bad body are INVALID_ARGUMENT at once, with no handler call")
    func badRequests() throws {
        let route = try inlineRoute { _, _ in
            Issue.record("the handler must not run")
            throw Unexpected()
        }
        let cases: [(requests: [String], reason: String)] = [
            ([], "missingMessage"),
            ([#"{"id": 1}"#, #"{"id": 2}"#], "tooManyMessages"),
            (["{not json"], "invalidMessage"),
            ([#"{"id": "one"}"#], "invalidField"),
        ]
        for (requests, reason) in cases {
            let stream = FakeServerCallStream(jsonRequests: requests)
            start(route, on: stream)
            #expect(stream.finished.map(\.lastMessage) == [nil], "\(reason)")
            #expect(stream.finished.map(\.trailers.code) == [.invalidArgument], "\(reason)")
            #expect(stream.finished.map(\.trailers.detail?.reason) == [reason])
        }
    }

    @Test("the handler's RPCError is the call's status; any other error is UNKNOWN")
    func handlerErrors() throws {
        let failing = try inlineRoute { _, _ in throw RPCError(.notFound, "no item 7", detail: ErrorDetail(reason: "notFound")) }
        let notFound = FakeServerCallStream(jsonRequests: [#"{"id": 7}"#])
        start(failing, on: notFound)
        let trailers = try #require(notFound.finished.first?.trailers)
        #expect(trailers.code == .notFound)
        #expect(trailers.message == "no item 7")
        #expect(trailers.detail?.reason == "notFound")

        let unexpected = try inlineRoute { _, _ in throw Unexpected() }
        let unknown = FakeServerCallStream(jsonRequests: [#"{"id": 7}"#])
        start(unexpected, on: unknown)
        #expect(unknown.finished.map(\.trailers.code) == [.unknown])
    }

    @Test("a handler that suspends answers when it resumes, and cancelling its task reaches it")
    func suspendingHandler() async throws {
        let resumed = AsyncStream<Void>.makeStream()
        let route = try inlineRoute { request, _ in
            for await _ in resumed.stream { break }
            try Task.checkCancellation()
            return Item(id: request.id, name: "later")
        }
        let answered = FakeServerCallStream(jsonRequests: [#"{"id": 1}"#])
        let task = Task.immediate { await route.serve(answered) }
        #expect(answered.finished.isEmpty, "the handler waits")
        resumed.continuation.yield()
        await task.value
        #expect(answered.finished.map(\.trailers.code) == [.ok])

        let cancelled = FakeServerCallStream(jsonRequests: [#"{"id": 2}"#])
        let cancelledTask = Task.immediate { await route.serve(cancelled) }
        cancelledTask.cancel()
        await cancelledTask.value
        #expect(cancelled.finished.map(\.trailers.code) == [.cancelled])
    }

    @Test("an inline subscription attaches its source, whose waker wakes the stream, before its start returns")
    func subscription() throws {
        var router = Router()
        router.register(TestService.listItems, .serverStreaming(.inline, source: { (request: TestService.ListItemsRequest, context, waker) -> any ResponseSource in
            if request.count < 0 { throw RPCError(.invalidArgument, "negative count") }
            context.addInitialMetadata("x-initial", "i")
            return WakingSource(waker: waker)
        }))
        let route = try #require(router.route(for: TestService.listItems.descriptor.path))
        #expect(route.runsInline)
        let stream = FakeServerCallStream(jsonRequests: [#"{"count": 2}"#])
        start(route, on: stream)
        let source = try #require(stream.source as? WakingSource)
        source.waker.wake()
        #expect(stream.wakes == 1)

        let refused = FakeServerCallStream(jsonRequests: [#"{"count": -1}"#])
        start(route, on: refused)
        #expect(refused.finished.map(\.trailers.code) == [.invalidArgument])
        #expect(refused.source == nil)
    }

    @Test("a handler's policy is .task unless told; an async handler is not answered at once")
    func policies() throws {
        var router = Router()
        router.register(TestService.getItem, .unary { request, _ in Item(id: request.id, name: "") })
        router.register(TestService.listItems, .serverStreaming(.inline) { _, _, _ in })
        let getItem = try #require(router.route(for: TestService.getItem.descriptor.path))
        let listItems = try #require(router.route(for: TestService.listItems.descriptor.path))
        #expect(getItem.policy == .task)
        #expect(getItem.answersImmediately, "written without async")
        #expect(listItems.policy == .inline)
        #expect(!listItems.answersImmediately, "a writer's handler is async")
    }

    let head = RequestHead(path: "/test", contentType: .grpcJSON, metadata: ["x-user": "ada"], deadline: nil, peer: "fake-peer")

    @Test("a handler written without async answers at once, with no task: the response, its metadata, its errors")
    func immediateAnswer() throws {
        var router = Router()
        router.register(TestService.getItem, .unary(.inline) { request, context in
            #expect(context.requestMetadata.first("x-user") == "ada")
            if request.id == 0 { throw RPCError(.notFound, "no item 0") }
            context.addInitialMetadata("x-initial", "i")
            context.addTrailingMetadata("x-trailing", "t")
            return Item(id: request.id, name: "item \(request.id)")
        })
        let route = try #require(router.route(for: TestService.getItem.descriptor.path))
        #expect(route.answersImmediately)
        let noWaker = { () -> ResponseWaker in
            Issue.record("a unary route asked for a waker")
            return ResponseWaker {}
        }
        guard case .finished(let message, let initialMetadata, let trailers) =
            route.answer(request: Array(#"{"id": 7}"#.utf8), more: false, head: head, waker: noWaker)
        else {
            Issue.record("expected a finished answer")
            return
        }
        #expect(try JSONCodec.shared.decode(Item.self, from: try #require(message)) == Item(id: 7, name: "item 7"))
        #expect(initialMetadata == ["x-initial": "i"])
        #expect(trailers == .ok(["x-trailing": "t"]))
        for (request, more, code) in [(#"{"id": 0}"#, false, StatusCode.notFound), (#"{"id": 1}"#, true, .invalidArgument)] {
            guard case .finished(nil, _, let trailers) = route.answer(request: Array(request.utf8), more: more, head: head, waker: noWaker)
            else {
                Issue.record("expected a failed answer")
                return
            }
            #expect(trailers.code == code)
        }
    }

    @Test("a subscription written without async answers at once with its source, which holds the transport's waker")
    func immediateSubscription() throws {
        var router = Router()
        router.register(TestService.listItems, .serverStreaming(.inline, source: { (_: TestService.ListItemsRequest, _, waker) -> any ResponseSource in
            WakingSource(waker: waker)
        }))
        let route = try #require(router.route(for: TestService.listItems.descriptor.path))
        #expect(route.answersImmediately)
        let wakes = Mutex(0)
        guard case .source(let source, _) = route.answer(request: Array(#"{"count": 2}"#.utf8), more: false, head: head, waker: {
            ResponseWaker { wakes.withLock { $0 += 1 } }
        }) else {
            Issue.record("expected a source")
            return
        }
        (source as? WakingSource)?.waker.wake()
        #expect(wakes.withLock { $0 } == 1)
    }
}
