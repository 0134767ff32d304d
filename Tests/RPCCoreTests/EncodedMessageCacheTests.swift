import RPCCore
import Synchronization
import Testing

@Suite("EncodedMessageCache and inline routes answering encoded messages")
struct EncodedMessageCacheTests {
    typealias Item = TestService.Item

    /// JSON, counting the messages it encodes.
    final class CountingCodec: MessageCodec {
        private let encodes = Mutex(0)
        var encodeCount: Int { encodes.withLock { $0 } }
        var name: String { "counting" }

        func encode<Message: Encodable>(_ message: Message) throws(RPCError) -> [UInt8] {
            encodes.withLock { $0 += 1 }
            return try JSONCodec.shared.encode(message)
        }

        func decode<Message: Decodable>(_ type: Message.Type, from bytes: [UInt8]) throws(RPCError) -> Message {
            try JSONCodec.shared.decode(type, from: bytes)
        }
    }

    /// Another kind of codec: its bytes are JSON followed by a marker.
    struct MarkingCodec: MessageCodec {
        var name: String { "marking" }

        func encode<Message: Encodable>(_ message: Message) throws(RPCError) -> [UInt8] {
            try JSONCodec.shared.encode(message) + Array("!".utf8)
        }

        func decode<Message: Decodable>(_ type: Message.Type, from bytes: [UInt8]) throws(RPCError) -> Message {
            try JSONCodec.shared.decode(type, from: Array(bytes.dropLast()))
        }
    }

    func decoded(_ encoded: EncodedMessage<Item>) throws -> Item {
        try JSONCodec.shared.decode(Item.self, from: encoded.bytes)
    }

    @Test("an unchanged message is encoded once; a changed one is encoded again, never answered stale")
    func keepsUntilChanged() throws {
        let cache = EncodedMessageCache<Int, Item>(capacity: 16)
        let codec = CountingCodec()
        let first = try cache.encoded(Item(id: 1, name: "one"), for: 1, codec: codec)
        let again = try cache.encoded(Item(id: 1, name: "one"), for: 1, codec: codec)
        #expect(try decoded(first) == Item(id: 1, name: "one"))
        #expect(again.bytes == first.bytes)
        #expect(codec.encodeCount == 1)

        let renamed = try cache.encoded(Item(id: 1, name: "uno"), for: 1, codec: codec)
        #expect(try decoded(renamed) == Item(id: 1, name: "uno"))
        #expect(codec.encodeCount == 2)
        #expect(try decoded(try cache.encoded(Item(id: 1, name: "uno"), for: 1, codec: codec)) == Item(id: 1, name: "uno"))
        #expect(codec.encodeCount == 2)
    }

    @Test("bytes kept from one kind of codec are not answered to a call of another")
    func keyedByCodec() throws {
        let cache = EncodedMessageCache<Int, Item>(capacity: 16)
        let item = Item(id: 2, name: "two")
        let json = try cache.encoded(item, for: 2, codec: JSONCodec.shared)
        let marked = try cache.encoded(item, for: 2, codec: MarkingCodec())
        #expect(marked.bytes == json.bytes + Array("!".utf8))
        #expect(try MarkingCodec().decode(Item.self, from: marked.bytes) == item)
    }

    @Test("past its capacity the cache starts over and still answers every key right")
    func capacity() throws {
        let cache = EncodedMessageCache<Int, Item>(capacity: 2)
        let codec = CountingCodec()
        for round in 0..<3 {
            for id in 0..<3 {
                let item = Item(id: id, name: "item \(id)")
                #expect(try decoded(try cache.encoded(item, for: id, codec: codec)) == item, "round \(round)")
            }
        }
        // Never more than two kept: the third key empties the cache, so most lookups encode.
        #expect(codec.encodeCount > 3)
        #expect(codec.encodeCount <= 9)
    }

    @Test("a route answers the handler's encoded message as is; another codec's bytes are INTERNAL", arguments: [ExecutionPolicy.inline, .task])
    func encodedRoute(policy: ExecutionPolicy) async throws {
        var router = Router()
        router.register(TestService.getItem, .unary(policy, encoded: { request, context in
            let item = Item(id: request.id, name: "item \(request.id)")
            return try EncodedMessage(item, codec: request.id == 0 ? MarkingCodec() : context.contentType.codec)
        }))
        let route = try #require(router.route(for: TestService.getItem.descriptor.path))
        #expect(route.policy == policy)

        let stream = FakeServerCallStream(jsonRequests: [#"{"id": 6}"#])
        await route.run(stream)
        try #require(stream.finished.count == 1)
        let message = try #require(stream.finished[0].lastMessage)
        #expect(try JSONCodec.shared.decode(Item.self, from: message) == Item(id: 6, name: "item 6"))
        #expect(stream.finished[0].trailers == .ok([:]))

        let mismatch = FakeServerCallStream(jsonRequests: [#"{"id": 0}"#])
        await route.run(mismatch)
        #expect(mismatch.finished.map(\.lastMessage) == [nil])
        #expect(mismatch.finished.map(\.trailers.code) == [.internalError])
    }
}
