import Foundation

/// The JSON codec of the contract: camelCase keys, absent optionals omitted, unknown keys
/// ignored, RFC 3339 UTC timestamps. A zero-length message decodes as `{}`.
///
/// Messages are encoded by `StreamingJSONEncoder` (keys in the order they are encoded) and
/// decoded by Foundation's `JSONDecoder`, but for the plain form of a `JSONReadable` one.
public struct JSONCodec: MessageCodec {
    private let encoder = StreamingJSONEncoder()
    /// For the rare message that fills its containers out of order, which a stream cannot write.
    private let treeEncoder: JSONEncoder
    private let decoder: JSONDecoder

    /// A codec; `JSONCodec.shared` serves every call.
    /// `json`.
    public var name: String { "json" }

    public init() {
        let treeEncoder = JSONEncoder()
        treeEncoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339.format(date))
        }
        treeEncoder.outputFormatting = [.withoutEscapingSlashes]
        self.treeEncoder = treeEncoder
        decoder = JSONDecoder()
        // Not `.iso8601`: its errors leave the date's own key out of the coding path, so a bad
        // timestamp was reported as invalid JSON instead of naming the field.
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            if let date = try? Date(text, strategy: .iso8601) { return date }
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected an RFC 3339 UTC timestamp")
        }
    }

    public func encode<Message: Encodable>(_ message: Message) throws(RPCError) -> [UInt8] {
        do {
            if let bytes = try encoder.encode(message) { return bytes }
            return Array(try treeEncoder.encode(message))
        } catch {
            throw RPCError(.internalError, "cannot encode \(Message.self) as JSON: \(error)")
        }
    }

    public func decode<Message: Decodable>(_ type: Message.Type, from bytes: [UInt8]) throws(RPCError) -> Message {
        if let readable = Message.self as? any JSONReadable.Type, let message = Self.read(bytes, with: { readable.init(json: &$0) }) {
            return message as! Message
        }
        if JSONNesting.exceeds(JSONNesting.foundationLimit, in: bytes) {
            throw RPCError(
                .invalidArgument, "message is not valid JSON: it nests deeper than \(JSONNesting.foundationLimit) levels",
                detail: ErrorDetail(reason: "invalidMessage"))
        }
        let data = bytes.isEmpty ? Data("{}".utf8) : Data(bytes)
        do {
            return try decoder.decode(Message.self, from: data)
        } catch let error as DecodingError {
            throw Self.invalidArgument(error)
        } catch {
            throw RPCError(.invalidArgument, "message is not valid JSON: \(error)", detail: ErrorDetail(reason: "invalidMessage"))
        }
    }

    /// The message `read` makes of `bytes` (`{}` when empty), when they hold its plain form.
    static func read<Message>(_ bytes: [UInt8], with read: (inout JSONReader) -> Message?) -> Message? {
        (bytes.isEmpty ? emptyObject : bytes).withUnsafeBytes { bytes in
            var reader = JSONReader(bytes)
            guard let message = read(&reader), reader.isAtEnd() else { return nil }
            return message
        }
    }

    private static let emptyObject = Array("{}".utf8)

    /// INVALID_ARGUMENT naming the field `error` is about (shared with the CBOR codec, whose
    /// `format` it says when no field is known).
    static func invalidArgument(_ error: DecodingError, format: String = "JSON") -> RPCError {
        let (path, explanation): ([any CodingKey], String)
        switch error {
        case .keyNotFound(let key, let context):
            (path, explanation) = (context.codingPath + [key], "is required")
        case .typeMismatch(let type, let context):
            (path, explanation) = (context.codingPath, "must be \(describe(type))")
        case .valueNotFound(let type, let context):
            (path, explanation) = (context.codingPath, "must be \(describe(type)), not null")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return RPCError(.invalidArgument, "message is not valid \(format)", detail: ErrorDetail(reason: "invalidMessage"))
            }
            (path, explanation) = (context.codingPath, "is invalid: \(context.debugDescription)")
        @unknown default:
            return RPCError(.invalidArgument, "message does not decode", detail: ErrorDetail(reason: "invalidMessage"))
        }
        let field = fieldPath(path)
        return RPCError(
            .invalidArgument,
            "field '\(field)' \(explanation)",
            detail: ErrorDetail(reason: "invalidField", field: field)
        )
    }

    /// `items[2].price.amount` style path.
    static func fieldPath(_ path: [any CodingKey]) -> String {
        FieldPathComponent.text(path.map { key in key.intValue.map(FieldPathComponent.index) ?? .key(key.stringValue) })
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type, is Date.Type, is any RawRepresentable<String>.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type, is UInt64.Type, is UInt32.Type: "an integer"
        case is Double.Type, is Float.Type: "a number"
        default:
            String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}
