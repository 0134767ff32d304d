/// Encodes `Encodable` values to UTF-8 JSON in one pass, straight into a byte buffer, with the
/// output of the codec's Foundation `JSONEncoder` (`.withoutEscapingSlashes`, RFC 3339 dates)
/// but keys in the order they are encoded rather than in hash order.
///
/// ```swift
/// let bytes = try StreamingJSONEncoder().encode(category)   // nil: use a tree-building encoder
/// ```
///
/// A stream cannot go back: a value that fills a container after writing to its parent (a
/// nested container or super-encoder used out of order, which compiler-written `Codable`
/// conformances never do) is answered `nil`, for the caller to encode with Foundation.
struct StreamingJSONEncoder {
    /// The JSON of `value`, or `nil` when it writes its containers in an order a stream cannot
    /// follow. Throws what `value` throws, and `EncodingError` for a NaN or infinite number
    /// or a top-level value that encodes nothing, as Foundation does.
    func encode<Value: Encodable>(_ value: Value) throws -> [UInt8]? {
        if let writable = value as? any JSONWritable {
            var writer = JSONWriter(capacity: 256)
            writable.writeJSON(to: &writer)
            return writer.output.bytes()
        }
        let stream = JSONEncodingStream()
        let root = stream.push(nil)
        try stream.writeValue(value, in: root)
        guard !stream.cannotStream else { return nil }
        guard stream.shape(of: root) != .empty else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(codingPath: [], debugDescription: "Top-level \(Value.self) did not encode any values.")
            )
        }
        stream.close(above: -1)
        return stream.output.bytes()
    }
}
