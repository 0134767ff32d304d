import Foundation

/// The CBOR codec of the contract (`application/grpc+cbor`): each message one CBOR map keyed by
/// the JSON field names, values in CBOR's own types, timestamps as RFC 3339 text, absent
/// optionals omitted, unknown keys ignored, a zero-length message read as `{}`. Messages are
/// written deterministically (`CBORWriter`) and read strictly (`CBORReader`); a message with
/// generated paths (`CBORWritable`, `CBORReadable`) is written and read by them.
public struct CBORCodec: MessageCodec {
    /// One codec shared by every call; encoding and decoding keep no state between calls.
    public static let shared = CBORCodec()

    /// `cbor`.
    public var name: String { "cbor" }

    public init() {}

    public func encode<Message: Encodable>(_ message: Message) throws(RPCError) -> [UInt8] {
        if let writable = message as? any CBORWritable {
            var writer = CBORWriter(reservingCapacity: 256)
            writable.writeCBOR(to: &writer)
            return writer.bytes
        }
        let root = CBORNode()
        do {
            try CBORNode.encode(message, into: root, codingPath: [])
        } catch {
            throw RPCError(.internalError, "cannot encode \(Message.self) as CBOR: \(error)")
        }
        return CBORWriter.encode(root.value)
    }

    public func decode<Message: Decodable>(_ type: Message.Type, from bytes: [UInt8]) throws(RPCError) -> Message {
        if let readable = Message.self as? any CBORReadable.Type {
            return try Self.read(bytes) { reader throws(CBORMessageError) in try readable.init(cbor: &reader) as! Message }
        }
        let value: CBORValue
        do {
            value = bytes.isEmpty ? .map([]) : try CBORReader.decode(bytes)
        } catch {
            throw RPCError(.invalidArgument, "message is not valid CBOR: \(error)", detail: ErrorDetail(reason: "invalidMessage"))
        }
        do {
            return try CBORValueDecoder.decode(Message.self, from: value, codingPath: [])
        } catch let error as DecodingError {
            throw JSONCodec.invalidArgument(error, format: "CBOR")
        } catch {
            throw RPCError(.invalidArgument, "message does not decode: \(error)", detail: ErrorDetail(reason: "invalidMessage"))
        }
    }

    /// The message `read` makes of all of `bytes` (`{}` when empty), or the error it meets.
    static func read<Message>(_ bytes: [UInt8], with read: (inout CBORReader) throws(CBORMessageError) -> Message) throws(RPCError) -> Message {
        var reader = CBORReader(bytes.isEmpty ? emptyMap : bytes)
        do {
            let message = try read(&reader)
            try reader.finish()
            return message
        } catch {
            throw error.rpcError
        }
    }

    private static let emptyMap: [UInt8] = [0xA0]
}
