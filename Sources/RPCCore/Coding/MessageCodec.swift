/// Turns messages into bytes and back; chosen per call from the content type.
public protocol MessageCodec: Sendable {
    /// Encodes a message.
    func encode<Message: Encodable>(_ message: Message) throws(RPCError) -> [UInt8]
    /// Decodes a message; failures are INVALID_ARGUMENT naming the field at fault.
    func decode<Message: Decodable>(_ type: Message.Type, from bytes: [UInt8]) throws(RPCError) -> Message
}
