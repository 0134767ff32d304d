/// A JSON value that keeps what plain `Codable` loses on the way to the screen: the order
/// of object keys and the exact text of numbers.
///
/// Responses are shown as the server or the message type wrote them: `-o json`, `-o ndjson`
/// and `-o yaml` all render the same document.
///
/// ```swift
/// let document = try JSONDocument(parsing: Array(#"{"id": 3, "price": {"amount": "990.00"}}"#.utf8))
/// document.prettyJSON     // two-space indented, keys in their original order
/// ```
package enum JSONDocument: Hashable, Sendable {
    case null
    case bool(Bool)
    /// A number, as the text it was written with (`3`, `0.25`, `1e3`).
    case number(String)
    case string(String)
    case array([JSONDocument])
    /// The members of an object, in order.
    case object([Member])

    /// One key and value of an object.
    package struct Member: Hashable, Sendable {
        package var key: String
        package var value: JSONDocument

        package init(_ key: String, _ value: JSONDocument) {
            self.key = key
            self.value = value
        }
    }

}
