/// Decodes the messages of one type with the call's codec: a route's requests, a stream's
/// responses. Whether the message reads its own JSON (`JSONReadable`) and CBOR
/// (`CBORReadable`) is found once, when the route is registered or the stream opened: asked
/// on every message, that type check cost more than reading a small request.
struct MessageDecoder<Message: Decodable & Sendable>: Sendable {
    private let readJSON: (@Sendable (inout JSONReader) -> Message?)?
    private let readCBOR: (@Sendable (inout CBORReader) throws(CBORMessageError) -> Message)?

    init() {
        if let readable = Message.self as? any (JSONReadable & Sendable).Type {
            readJSON = Self.reader(of: readable)
        } else {
            readJSON = nil
        }
        if let readable = Message.self as? any (CBORReadable & Sendable).Type {
            readCBOR = Self.cborReader(of: readable)
        } else {
            readCBOR = nil
        }
    }

    /// Whether plain JSON requests are read by the message itself, not by Foundation.
    var readsJSONItself: Bool { readJSON != nil }

    func decode(_ bytes: [UInt8], with codec: any MessageCodec) throws(RPCError) -> Message {
        if let readJSON, type(of: codec) == JSONCodec.self, let message = JSONCodec.read(bytes, with: readJSON) {
            return message
        }
        if let readCBOR, type(of: codec) == CBORCodec.self {
            return try CBORCodec.read(bytes, with: readCBOR)
        }
        return try codec.decode(Message.self, from: bytes)
    }

    /// `Readable` is `Message` itself, opened from the existential: the reader's type is cast
    /// to `Message`'s once, here, instead of each message it reads.
    private static func reader<Readable: JSONReadable & Sendable>(of _: Readable.Type) -> (@Sendable (inout JSONReader) -> Message?)? {
        let read: @Sendable (inout JSONReader) -> Readable? = { Readable(json: &$0) }
        return read as? @Sendable (inout JSONReader) -> Message?
    }

    private static func cborReader<Readable: CBORReadable & Sendable>(
        of _: Readable.Type
    ) -> (@Sendable (inout CBORReader) throws(CBORMessageError) -> Message)? {
        let read: @Sendable (inout CBORReader) throws(CBORMessageError) -> Readable = { reader throws(CBORMessageError) in
            try Readable(cbor: &reader)
        }
        return read as? @Sendable (inout CBORReader) throws(CBORMessageError) -> Message
    }
}
