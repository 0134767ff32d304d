import RPCCore
import Testing

@Suite("RPCClient", .timeLimit(.minutes(1)))
struct RPCClientTests {
    typealias Item = TestService.Item

    static func json(_ text: String) -> Result<[UInt8], RPCError> { .success(Array(text.utf8)) }

    @Test("sends the encoded request, half-closed, and returns the decoded response")
    func unary() async throws {
        let call = FakeClientCallStream(
            responses: [Self.json(#"{"id": 7, "name": "seven"}"#)],
            initialMetadata: ["x-initial": "i"],
            trailingMetadata: ["x-trailing": "t"]
        )
        let transport = FakeClientTransport(call: call)
        let client = RPCClient(transport: transport)
        let options = CallOptions(timeout: .seconds(5), metadata: ["authorization": "Bearer x"], compression: .gzip)

        let response = try await client.unaryResponse(TestService.getItem, .init(id: 7), options: options)
        #expect(response.message == Item(id: 7, name: "seven"))
        #expect(response.initialMetadata == ["x-initial": "i"])
        #expect(response.trailingMetadata == ["x-trailing": "t"])

        let opened = try #require(transport.openedCalls.first)
        #expect(opened.method == TestService.getItem.descriptor)
        #expect(opened.options.timeout == .seconds(5))
        #expect(opened.options.metadata == ["authorization": "Bearer x"])
        #expect(opened.options.compression == .gzip)
        let sent = call.sent
        try #require(sent.count == 1)
        #expect(sent[0].endOfStream)
        #expect(try JSONCodec.shared.decode(TestService.GetItemRequest.self, from: sent[0].message) == .init(id: 7))
    }

    @Test("returns just the message from unary, with empty metadata when none arrived")
    func unaryMessageOnly() async throws {
        let call = FakeClientCallStream(responses: [Self.json(#"{"id": 1, "name": "one"}"#)])
        let client = RPCClient(transport: FakeClientTransport(call: call))
        #expect(try await client.unary(TestService.getItem, .init(id: 1)) == Item(id: 1, name: "one"))
        let response = try await RPCClient(transport: FakeClientTransport(call: FakeClientCallStream(responses: [Self.json("{}")])))
            .unaryResponse(TestService.ping, Empty())
        #expect(response.initialMetadata.isEmpty)
        #expect(response.trailingMetadata.isEmpty)
    }

    @Test("fails a unary call that ends without a response message")
    func unaryNoResponse() async throws {
        let call = FakeClientCallStream(responses: [])
        let client = RPCClient(transport: FakeClientTransport(call: call))
        let error = await #expect(throws: RPCError.self) { try await client.unary(TestService.getItem, .init(id: 1)) }
        #expect(error?.code == .internalError)
        #expect(call.cancelCount >= 1)
    }

    @Test("fails a unary call that answers with two messages")
    func unaryTwoResponses() async throws {
        let item = Self.json(#"{"id": 1, "name": "one"}"#)
        let call = FakeClientCallStream(responses: [item, item])
        let client = RPCClient(transport: FakeClientTransport(call: call))
        let error = await #expect(throws: RPCError.self) { try await client.unary(TestService.getItem, .init(id: 1)) }
        #expect(error?.code == .internalError)
        #expect(call.cancelCount >= 1)
    }

    @Test("throws the call's RPCError unchanged")
    func unaryServerError() async throws {
        let serverError = RPCError(.notFound, "no item 42", detail: ErrorDetail(reason: "notFound", details: ["id": 42]))
        let call = FakeClientCallStream(responses: [.failure(serverError)])
        let client = RPCClient(transport: FakeClientTransport(call: call))
        let error = await #expect(throws: RPCError.self) { try await client.unary(TestService.getItem, .init(id: 42)) }
        #expect(error == serverError)
    }

    @Test("throws the transport's error when the call cannot open")
    func openFails() async throws {
        let transport = FakeClientTransport(call: FakeClientCallStream(responses: []), openError: RPCError(.unavailable, "down"))
        let client = RPCClient(transport: transport)
        let error = await #expect(throws: RPCError.self) { try await client.unary(TestService.getItem, .init(id: 1)) }
        #expect(error?.code == .unavailable)
        #expect(transport.call.sent.isEmpty)
    }

    @Test("cancels the call when the calling task is cancelled")
    func unaryTaskCancelled() async throws {
        let call = FakeClientCallStream(responses: [], hangsAtEnd: true)
        let client = RPCClient(transport: FakeClientTransport(call: call))
        let task = Task { try await client.unary(TestService.getItem, .init(id: 1)) }
        var waiting = call.waiting.makeAsyncIterator()
        _ = await waiting.next()
        #expect(call.cancelCount == 0)
        task.cancel()
        let error = await #expect(throws: RPCError.self) { try await task.value }
        #expect(error?.code == .cancelled)
        #expect(call.cancelCount >= 1)
    }

    @Test("streams every response of a server-streaming call, then ends")
    func serverStreaming() async throws {
        let call = FakeClientCallStream(
            responses: (0..<3).map { Self.json(#"{"id": \#($0), "name": "item \#($0)"}"#) },
            trailingMetadata: ["x-count": "3"]
        )
        let client = RPCClient(transport: FakeClientTransport(call: call))
        let stream = try await client.serverStreaming(TestService.listItems, .init(count: 3))
        var received: [Item] = []
        for try await item in stream {
            received.append(item)
        }
        #expect(received == (0..<3).map { Item(id: $0, name: "item \($0)") })
        #expect(stream.trailingMetadata == ["x-count": "3"])
        #expect(call.sent.count == 1)
        #expect(call.sent.first?.endOfStream == true)
    }

    @Test("throws the error that ends a server stream after the messages before it")
    func serverStreamingError() async throws {
        let call = FakeClientCallStream(responses: [
            Self.json(#"{"id": 0, "name": "zero"}"#), .failure(RPCError(.dataLoss, "disk gone")),
        ])
        let client = RPCClient(transport: FakeClientTransport(call: call))
        let stream = try await client.serverStreaming(TestService.listItems, .init(count: 3))
        var received: [Item] = []
        let error = await #expect(throws: RPCError.self) {
            for try await item in stream {
                received.append(item)
            }
        }
        #expect(error?.code == .dataLoss)
        #expect(received == [Item(id: 0, name: "zero")])
    }

    @Test("cancels a server-streaming call when the stream is released early")
    func serverStreamingReleased() async throws {
        let call = FakeClientCallStream(responses: [Self.json(#"{"id": 0, "name": "zero"}"#)], hangsAtEnd: true)
        let client = RPCClient(transport: FakeClientTransport(call: call))
        do {
            let stream = try await client.serverStreaming(TestService.listItems, .init(count: 3))
            var iterator = stream.makeAsyncIterator()
            #expect(try await iterator.next() == Item(id: 0, name: "zero"))
            #expect(call.cancelCount == 0)
        }
        #expect(call.cancelCount >= 1, "releasing the stream cancels the call")
    }
}
