import Foundation

/// Encodes `Encodable` messages into a ``JSONDocument`` with their keys in the order the type
/// encodes them (for the `catalog.v1` messages, the contract's order: `id`, `title`, …), the
/// JSON of the contract otherwise: dates as RFC 3339 UTC strings, absent optionals omitted.
///
/// ```swift
/// let document = try DocumentEncoder().encode(item)
/// print(document.prettyJSON)
/// ```
package struct DocumentEncoder: Sendable {
    package init() {}

    /// The document for `value`.
    package func encode<Value: Encodable>(_ value: Value) throws -> JSONDocument {
        let root = EncodingNode()
        try root.encode(value, codingPath: [])
        return root.document
    }
}

/// A value under construction; containers append children to it.
private final class EncodingNode {
    enum Content {
        case empty
        case scalar(JSONDocument)
        case array([EncodingNode])
        case object([(key: String, node: EncodingNode)])
    }

    var content: Content = .empty

    var document: JSONDocument {
        switch content {
        case .empty: .object([])
        case .scalar(let value): value
        case .array(let nodes): .array(nodes.map(\.document))
        case .object(let members): .object(members.map { JSONDocument.Member($0.key, $0.node.document) })
        }
    }

    func encode<Value: Encodable>(_ value: Value, codingPath: [any CodingKey]) throws {
        switch value {
        case let date as Date: content = .scalar(.string(date.ISO8601Format()))
        case let url as URL: content = .scalar(.string(url.absoluteString))
        case let decimal as Decimal: content = .scalar(.number("\(decimal)"))
        default: try value.encode(to: NodeEncoder(node: self, codingPath: codingPath))
        }
    }

    func child(forKey key: String) -> EncodingNode {
        let node = EncodingNode()
        var members: [(key: String, node: EncodingNode)] = []
        if case .object(let existing) = content { members = existing.filter { $0.key != key } }
        members.append((key, node))
        content = .object(members)
        return node
    }

    func appendElement() -> EncodingNode {
        let node = EncodingNode()
        var elements: [EncodingNode] = []
        if case .array(let existing) = content { elements = existing }
        elements.append(node)
        content = .array(elements)
        return node
    }

    static func number<Number: BinaryFloatingPoint>(_ value: Number, codingPath: [any CodingKey]) throws -> JSONDocument {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: codingPath, debugDescription: "JSON has no infinite or NaN numbers"))
        }
        let double = Double(value)
        if double == double.rounded(), abs(double) < 1e15 { return .number(String(Int64(double))) }
        return .number("\(double)")
    }
}

private struct NodeEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([]) }
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return UnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(node: node, codingPath: codingPath)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.child(forKey: key.stringValue).content = .scalar(.null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { node.child(forKey: key.stringValue).content = .scalar(.bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { node.child(forKey: key.stringValue).content = .scalar(.string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        node.child(forKey: key.stringValue).content = .scalar(try EncodingNode.number(value, codingPath: codingPath + [key]))
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        node.child(forKey: key.stringValue).content = .scalar(try EncodingNode.number(value, codingPath: codingPath + [key]))
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { setInteger(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { setInteger(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { setInteger(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { setInteger(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { setInteger(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { setInteger(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { setInteger(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { setInteger(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { setInteger(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { setInteger(value, key) }

    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        try node.child(forKey: key.stringValue).encode(value, codingPath: codingPath + [key])
    }

    private func setInteger<Integer: BinaryInteger>(_ value: Integer, _ key: Key) {
        node.child(forKey: key.stringValue).content = .scalar(.number(String(value)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        NodeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        NodeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        NodeEncoder(node: node.child(forKey: "super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        NodeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    var count: Int {
        if case .array(let elements) = node.content { return elements.count }
        return 0
    }

    mutating func encodeNil() throws { node.appendElement().content = .scalar(.null) }
    mutating func encode(_ value: Bool) throws { node.appendElement().content = .scalar(.bool(value)) }
    mutating func encode(_ value: String) throws { node.appendElement().content = .scalar(.string(value)) }
    mutating func encode(_ value: Double) throws {
        node.appendElement().content = .scalar(try EncodingNode.number(value, codingPath: codingPath))
    }
    mutating func encode(_ value: Float) throws {
        node.appendElement().content = .scalar(try EncodingNode.number(value, codingPath: codingPath))
    }
    mutating func encode(_ value: Int) throws { node.appendElement().content = .scalar(.number(String(value))) }
    mutating func encode(_ value: Int8) throws { node.appendElement().content = .scalar(.number(String(value))) }
    mutating func encode(_ value: Int16) throws { node.appendElement().content = .scalar(.number(String(value))) }
    mutating func encode(_ value: Int32) throws { node.appendElement().content = .scalar(.number(String(value))) }
    mutating func encode(_ value: Int64) throws { node.appendElement().content = .scalar(.number(String(value))) }
    mutating func encode(_ value: UInt) throws { node.appendElement().content = .scalar(.number(String(value))) }
    mutating func encode(_ value: UInt8) throws { node.appendElement().content = .scalar(.number(String(value))) }
    mutating func encode(_ value: UInt16) throws { node.appendElement().content = .scalar(.number(String(value))) }
    mutating func encode(_ value: UInt32) throws { node.appendElement().content = .scalar(.number(String(value))) }
    mutating func encode(_ value: UInt64) throws { node.appendElement().content = .scalar(.number(String(value))) }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        try node.appendElement().encode(value, codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        NodeEncoder(node: node.appendElement(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        NodeEncoder(node: node.appendElement(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        NodeEncoder(node: node.appendElement(), codingPath: codingPath)
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.content = .scalar(.null) }
    mutating func encode(_ value: Bool) throws { node.content = .scalar(.bool(value)) }
    mutating func encode(_ value: String) throws { node.content = .scalar(.string(value)) }
    mutating func encode(_ value: Double) throws { node.content = .scalar(try EncodingNode.number(value, codingPath: codingPath)) }
    mutating func encode(_ value: Float) throws { node.content = .scalar(try EncodingNode.number(value, codingPath: codingPath)) }
    mutating func encode(_ value: Int) throws { node.content = .scalar(.number(String(value))) }
    mutating func encode(_ value: Int8) throws { node.content = .scalar(.number(String(value))) }
    mutating func encode(_ value: Int16) throws { node.content = .scalar(.number(String(value))) }
    mutating func encode(_ value: Int32) throws { node.content = .scalar(.number(String(value))) }
    mutating func encode(_ value: Int64) throws { node.content = .scalar(.number(String(value))) }
    mutating func encode(_ value: UInt) throws { node.content = .scalar(.number(String(value))) }
    mutating func encode(_ value: UInt8) throws { node.content = .scalar(.number(String(value))) }
    mutating func encode(_ value: UInt16) throws { node.content = .scalar(.number(String(value))) }
    mutating func encode(_ value: UInt32) throws { node.content = .scalar(.number(String(value))) }
    mutating func encode(_ value: UInt64) throws { node.content = .scalar(.number(String(value))) }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        try node.encode(value, codingPath: codingPath)
    }
}
