/// Decodes the requests of one route with the call's codec. Whether the message reads its
/// own JSON (`JSONReadable`) is found once, when the route is registered: asked on every
/// call, that type check cost more than reading a small request.
struct RequestDecoder<Message: Decodable & Sendable>: Sendable {
    private let readJSON: (@Sendable (inout JSONReader) -> Message?)?

    init() {
        if let readable = Message.self as? any (JSONReadable & Sendable).Type {
            readJSON = Self.reader(of: readable)
        } else {
            readJSON = nil
        }
    }

    func decode(_ bytes: [UInt8], with codec: any MessageCodec) throws(RPCError) -> Message {
        if let readJSON, codec is JSONCodec, let message = JSONCodec.read(bytes, with: readJSON) {
            return message
        }
        return try codec.decode(Message.self, from: bytes)
    }

    /// `Readable` is `Message` itself, opened from the existential.
    private static func reader<Readable: JSONReadable & Sendable>(of _: Readable.Type) -> @Sendable (inout JSONReader) -> Message? {
        { reader in Readable(json: &reader).flatMap { $0 as? Message } }
    }
}
