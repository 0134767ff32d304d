/// A message already encoded by a codec, typed by the message it encodes: a handler that
/// answers the same message call after call keeps it (one per codec) and returns
/// it from a handler registered with `.unary(encoded:)` (see `MethodHandler`), so the message
/// is not encoded every time.
public struct EncodedMessage<Message: Encodable>: Sendable {
    /// The message's bytes.
    public let bytes: [UInt8]
    /// The type of the codec that encoded them.
    @usableFromInline let codecType: ObjectIdentifier

    /// Encodes `message` with `codec`.
    @inlinable
    public init(_ message: Message, codec: any MessageCodec) throws(RPCError) {
        bytes = try codec.encode(message)
        codecType = ObjectIdentifier(type(of: codec))
    }

    /// Whether `codec` would have encoded these bytes (a codec of the same type did).
    @inlinable
    func isEncoded(by codec: any MessageCodec) -> Bool {
        codecType == ObjectIdentifier(type(of: codec))
    }
}
