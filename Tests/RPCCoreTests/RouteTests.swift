import RPCCore
import Synchronization
import Testing

@Suite("Route.run", .timeLimit(.minutes(1)))
struct RouteTests {
    typealias Item = TestService.Item

    struct HandlerFailure: Error {}

    /// Counts handler calls across tasks.
    final class Counter: Sendable {
        private let value = Mutex(0)
        func increment() { value.withLock { $0 += 1 } }
        var count: Int { value.withLock { $0 } }
    }

    /// A router serving `TestService.getItem` with `handler`.
    func unaryRoute(
        _ handler: @escaping @Sendable (TestService.GetItemRequest, ServerContext) async throws -> Item
    ) throws -> Route {
        var router = Router()
        router.register(TestService.getItem, .unary(.task, handler))
        return try #require(router.route(for: TestService.getItem.descriptor.path))
    }

    /// A router serving `TestService.listItems` with `handler`.
    func streamingRoute(
        _ handler: @escaping @Sendable (TestService.ListItemsRequest, ResponseStreamWriter<Item>, ServerContext) async throws -> Void
    ) throws -> Route {
        var router = Router()
        router.register(TestService.listItems, .serverStreaming(.task, handler))
        return try #require(router.route(for: TestService.listItems.descriptor.path))
    }

    /// The only finish call of `stream`.
    func onlyFinish(_ stream: FakeServerCallStream) throws -> FakeServerCallStream.Finished {
        let finished = stream.finished
        try #require(finished.count == 1, "finish must be called exactly once, not \(finished.count) times")
        return finished[0]
    }

    @Test("answers a unary call with the encoded response and OK trailers")
    func unaryHappyPath() async throws {
        let route = try unaryRoute { request, context in
            #expect(context.method == TestService.getItem.descriptor)
            #expect(context.requestMetadata.first("x-user") == "ada")
            #expect(context.peer == "fake-peer")
            #expect(context.deadline == nil)
            context.addInitialMetadata("x-initial", "i")
            context.addTrailingMetadata("x-trailing", "t")
            return Item(id: request.id, name: "item \(request.id)")
        }
        let stream = FakeServerCallStream(jsonRequests: [#"{"id": 7}"#], metadata: ["x-user": "ada"])
        await route.run(stream)

        let finish = try onlyFinish(stream)
        let lastMessage = try #require(finish.lastMessage)
        #expect(try JSONCodec.shared.decode(Item.self, from: lastMessage) == Item(id: 7, name: "item 7"))
        #expect(finish.trailers.code == .ok)
        #expect(finish.trailers.message.isEmpty)
        #expect(finish.trailers.detail == nil)
        #expect(finish.trailers.metadata == ["x-trailing": "t"])
        #expect(finish.initialMetadata == ["x-initial": "i"])
        #expect(stream.sent.isEmpty, "a unary response goes out with finish, not send")
        #expect(stream.receiveCount == 2, "the router checks that no second message follows")
        #expect(stream.waitEndedByAbort == false, "the wait ends because the handler finished the call")
    }

    @Test("decodes a zero-length request message as {}")
    func zeroLengthRequest() async throws {
        var router = Router()
        router.register(TestService.ping, .unary { _, _ in Empty() })
        let route = try #require(router.route(for: TestService.ping.descriptor.path))
        let stream = FakeServerCallStream(requests: [.success([])])
        await route.run(stream)
        let finish = try onlyFinish(stream)
        #expect(finish.trailers.code == .ok)
        #expect(finish.lastMessage == Array("{}".utf8))
    }

    @Test("rejects a unary call without a request message")
    func noRequest() async throws {
        let calls = Counter()
        let route = try unaryRoute { request, _ in
            calls.increment()
            return Item(id: request.id, name: "")
        }
        let stream = FakeServerCallStream(requests: [])
        await route.run(stream)
        let finish = try onlyFinish(stream)
        #expect(finish.trailers.code == .invalidArgument)
        #expect(finish.trailers.detail?.reason == "missingMessage")
        #expect(finish.lastMessage == nil)
        #expect(calls.count == 0)
    }

    @Test("rejects a unary call with two request messages")
    func twoRequests() async throws {
        let calls = Counter()
        let route = try unaryRoute { request, _ in
            calls.increment()
            return Item(id: request.id, name: "")
        }
        let stream = FakeServerCallStream(jsonRequests: [#"{"id": 1}"#, #"{"id": 2}"#])
        await route.run(stream)
        let finish = try onlyFinish(stream)
        #expect(finish.trailers.code == .invalidArgument)
        #expect(finish.trailers.detail?.reason == "tooManyMessages")
        #expect(finish.lastMessage == nil)
        #expect(calls.count == 0)
    }

    @Test("rejects a request that does not decode", arguments: [
        (#"{"id": "#, "invalidMessage", nil),
        (#"{"name": "x"}"#, "invalidField", "id"),
        (#"{"id": "seven"}"#, "invalidField", "id"),
    ] as [(String, String, String?)])
    func undecodableRequest(json: String, reason: String, field: String?) async throws {
        let calls = Counter()
        let route = try unaryRoute { request, _ in
            calls.increment()
            return Item(id: request.id, name: "")
        }
        let stream = FakeServerCallStream(jsonRequests: [json])
        await route.run(stream)
        let finish = try onlyFinish(stream)
        #expect(finish.trailers.code == .invalidArgument)
        #expect(finish.trailers.detail?.reason == reason)
        #expect(finish.trailers.detail?.field == field)
        #expect(calls.count == 0)
    }

    @Test("ends the call with the status of a request stream error")
    func receiveFails() async throws {
        let route = try unaryRoute { request, _ in Item(id: request.id, name: "") }
        let stream = FakeServerCallStream(requests: [.failure(RPCError(.resourceExhausted, "too big"))])
        await route.run(stream)
        let finish = try onlyFinish(stream)
        #expect(finish.trailers.code == .resourceExhausted)
        #expect(finish.trailers.message == "too big")
    }

    @Test("sends the status, message and detail of an RPCError thrown by the handler")
    func handlerThrowsRPCError() async throws {
        let detail = ErrorDetail(reason: "notFound", details: ["id": 42])
        let route = try unaryRoute { _, context in
            context.addInitialMetadata("x-initial", "i")
            throw RPCError(.notFound, "no item 42", detail: detail, metadata: ["x-error": "e"])
        }
        let stream = FakeServerCallStream(jsonRequests: [#"{"id": 42}"#])
        await route.run(stream)
        let finish = try onlyFinish(stream)
        #expect(finish.lastMessage == nil)
        #expect(finish.trailers.code == .notFound)
        #expect(finish.trailers.message == "no item 42")
        #expect(finish.trailers.detail == detail)
        #expect(finish.trailers.detail?.details?["id"]?.intValue == 42)
        #expect(finish.trailers.metadata == ["x-error": "e"])
        #expect(finish.initialMetadata == ["x-initial": "i"])
    }

    @Test("hides other handler errors behind UNKNOWN")
    func handlerThrowsOtherError() async throws {
        let route = try unaryRoute { _, _ in throw HandlerFailure() }
        let stream = FakeServerCallStream(jsonRequests: [#"{"id": 1}"#])
        await route.run(stream)
        let finish = try onlyFinish(stream)
        #expect(finish.trailers.code == .unknown)
    }

    @Test("streams every message a server-streaming handler writes, then OK")
    func serverStreaming() async throws {
        let route = try streamingRoute { request, writer, context in
            context.addInitialMetadata("x-initial", "i")
            for index in 0..<request.count {
                try await writer.write(Item(id: index, name: "item \(index)"))
            }
            context.addTrailingMetadata("x-count", .string(String(request.count)))
        }
        let stream = FakeServerCallStream(jsonRequests: [#"{"count": 3}"#])
        await route.run(stream)

        let sent = stream.sent
        #expect(sent.count == 3)
        #expect(try sent.map { try JSONCodec.shared.decode(Item.self, from: $0.message) } == (0..<3).map { Item(id: $0, name: "item \($0)") })
        #expect(sent.allSatisfy { $0.initialMetadata == ["x-initial": "i"] })
        let finish = try onlyFinish(stream)
        #expect(finish.lastMessage == nil)
        #expect(finish.trailers.code == .ok)
        #expect(finish.trailers.metadata == ["x-count": "3"])
        #expect(stream.waitEndedByAbort == false)
    }

    @Test("ends a server stream with the handler's error after the messages already sent")
    func serverStreamingFailure() async throws {
        let route = try streamingRoute { _, writer, _ in
            try await writer.write(Item(id: 1, name: "one"))
            throw RPCError(.dataLoss, "disk gone")
        }
        let stream = FakeServerCallStream(jsonRequests: [#"{"count": 3}"#])
        await route.run(stream)
        #expect(stream.sent.count == 1)
        let finish = try onlyFinish(stream)
        #expect(finish.trailers.code == .dataLoss)
        #expect(finish.trailers.message == "disk gone")
    }

    @Test("rejects a server-streaming call with two request messages")
    func serverStreamingTwoRequests() async throws {
        let route = try streamingRoute { _, writer, _ in try await writer.write(Item(id: 1, name: "one")) }
        let stream = FakeServerCallStream(jsonRequests: [#"{"count": 1}"#, #"{"count": 1}"#])
        await route.run(stream)
        #expect(stream.sent.isEmpty)
        #expect(try onlyFinish(stream).trailers.code == .invalidArgument)
    }

    @Test("cancels the handler when the call is aborted")
    func abortCancelsHandler() async throws {
        enum Event: Equatable { case started, sleptToTheEnd, cancelled }
        let (events, eventContinuation) = AsyncStream.makeStream(of: Event.self)
        let route = try unaryRoute { request, _ in
            eventContinuation.yield(.started)
            do {
                try await Task.sleep(for: .seconds(3_600))
                eventContinuation.yield(.sleptToTheEnd)
            } catch is CancellationError {
                eventContinuation.yield(.cancelled)
                throw CancellationError()
            }
            return Item(id: request.id, name: "late")
        }
        let stream = FakeServerCallStream(jsonRequests: [#"{"id": 1}"#])
        let call = Task { await route.run(stream) }

        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .started)
        #expect(stream.finished.isEmpty)
        stream.abort()
        await call.value
        #expect(await iterator.next() == .cancelled)

        #expect(stream.waitEndedByAbort == true, "the wait ended because of the abort")
        let finish = try onlyFinish(stream)
        #expect(finish.lastMessage == nil, "the cancelled handler produced no response")
        #expect(finish.trailers.code == .cancelled)
    }

    /// A source that hands out `count` items, then ends OK.
    final class CountingSource: ResponseSource {
        private let state: Mutex<(sent: Int, closed: Bool)>
        let count: Int

        init(count: Int) {
            self.count = count
            state = Mutex((0, false))
        }

        var closed: Bool { state.withLock { $0.closed } }

        func next() -> ResponsePull {
            state.withLock { state in
                guard state.sent < count else { return .end(.ok([:])) }
                state.sent += 1
                return .message(try! JSONCodec.shared.encode(Item(id: state.sent, name: "n")))
            }
        }

        func streamClosed() { state.withLock { $0.closed = true } }
    }

    @Test("a subscribe route attaches the source it gets and releases the call's task without finishing")
    func subscribeAttachesSource() async throws {
        var router = Router()
        let made = CountingSource(count: 2)
        router.register(TestService.listItems, .serverStreaming(source: { (request: TestService.ListItemsRequest, context, waker) in
            #expect(request.count == 2)
            #expect(context.contentType == .grpc)
            waker.wake()
            return made
        }))
        let route = try #require(router.route(for: TestService.listItems.descriptor.path))
        let stream = FakeServerCallStream(jsonRequests: [#"{"count": 2}"#])
        await route.run(stream)

        #expect(stream.finished.isEmpty, "the source, not the route, ends the stream")
        #expect(stream.waitEndedByAbort == false)
        #expect(stream.wakes == 1)
        let source = try #require(stream.source as? CountingSource)
        #expect(source === made)
        guard case .message(let first) = source.next() else { Issue.record("no first message"); return }
        #expect(try JSONCodec.shared.decode(Item.self, from: first) == Item(id: 1, name: "n"))
    }

    @Test("a subscribe route that throws ends the call with that status and attaches nothing")
    func subscribeErrorIsTheStatus() async throws {
        var router = Router()
        router.register(TestService.listItems, .serverStreaming(source: { (_: TestService.ListItemsRequest, _, _) -> any ResponseSource in
            throw RPCError(.resourceExhausted, "too many")
        }))
        let route = try #require(router.route(for: TestService.listItems.descriptor.path))
        let stream = FakeServerCallStream(jsonRequests: [#"{"count": 1}"#])
        await route.run(stream)
        #expect(stream.source == nil)
        #expect(try onlyFinish(stream).trailers.code == .resourceExhausted)
    }
}
