/// Turns messages into bytes and back; chosen per call from the content type.
///
/// ``JSONCodec`` and ``CBORCodec`` are built in. A codec of one's own, registered on a server's
/// `Router` (``Router/additionalCodecs``) and named by a client's content type, travels as
/// `application/grpc+name` and its gRPC-Web and Connect forms (``ContentType/every(of:)``).
public protocol MessageCodec: Sendable {
    /// The name content types carry, lowercase: `json`, `cbor`, or e.g. `msgpack` for
    /// `application/grpc+msgpack`.
    var name: String { get }
    /// Encodes a message.
    func encode<Message: Encodable>(_ message: Message) throws(RPCError) -> [UInt8]
    /// Decodes a message; failures are INVALID_ARGUMENT naming the field at fault.
    func decode<Message: Decodable>(_ type: Message.Type, from bytes: [UInt8]) throws(RPCError) -> Message
}
