import Synchronization

/// Encoded messages kept by key, each used for as long as the message it encodes is the one
/// a handler answers: a lookup compares the message with the one kept (equal messages share
/// their storage when they come from the same cache, so comparing them is cheap), and
/// encodes it afresh when it changed. A stale entry is therefore never sent.
///
/// ```swift
/// let responses = EncodedMessageCache<Int64, Order>(capacity: 4096)
/// router.register(Orders.get, .unary(.inline, encoded: { request, context in
///     try responses.encoded(try await store.order(id: request.id), for: request.id, codec: context.contentType.codec)
/// }))
/// ```
public final class EncodedMessageCache<Key: Hashable & Sendable, Message: Encodable & Equatable & Sendable>: Sendable {
    @usableFromInline let entries = Mutex<[Key: Entry]>([:])
    @usableFromInline let capacity: Int

    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline let message: Message
        @usableFromInline let encoded: EncodedMessage<Message>

        @inlinable init(message: Message, encoded: EncodedMessage<Message>) {
            self.message = message
            self.encoded = encoded
        }
    }

    /// A cache of at most `capacity` messages; once full, it starts over empty.
    public init(capacity: Int) {
        precondition(capacity > 0, "an EncodedMessageCache needs room for one message")
        self.capacity = capacity
    }

    /// `message` encoded by `codec`: the bytes kept for `key` if they encode an equal message
    /// with that kind of codec, or else newly encoded bytes, which are kept.
    ///
    /// (Inlinable so that it is specialized for its key and message where it is used: through
    /// generic witnesses, the lookup cost about as much as encoding a small message.)
    @inlinable
    public func encoded(_ message: Message, for key: Key, codec: any MessageCodec) throws(RPCError) -> EncodedMessage<Message> {
        let kept = entries.withLock { entries -> EncodedMessage<Message>? in
            guard let entry = entries[key], entry.message == message, entry.encoded.isEncoded(by: codec) else { return nil }
            return entry.encoded
        }
        if let kept { return kept }
        let encoded = try EncodedMessage(message, codec: codec)
        entries.withLock { entries in
            if entries.count >= capacity && entries[key] == nil { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(message: message, encoded: encoded)
        }
        return encoded
    }
}
