import Foundation

/// A value being encoded by `Encodable`: a scalar, a map or an array whose children are filled
/// in place as the containers are written.
final class CBORNode {
    private var scalar: CBORValue?
    private var entries: [(key: String, node: CBORNode)]?
    private var items: [CBORNode]?

    /// What was encoded (an empty map when nothing was).
    var value: CBORValue {
        if let scalar { return scalar }
        if let items { return .array(items.map(\.value)) }
        return .map((entries ?? []).map { CBORMapEntry(.text($0.key), $0.node.value) })
    }

    /// Encodes `value` into `node`: the scalars of the contract directly (a date as RFC 3339
    /// text), anything else through its `Encodable` conformance.
    static func encode<T: Encodable>(_ value: T, into node: CBORNode, codingPath: [any CodingKey]) throws {
        switch value {
        case let text as String: node.scalar = .text(text)
        case let flag as Bool: node.scalar = .bool(flag)
        case let number as Int: node.scalar = .integer(Int64(number))
        case let number as Int64: node.scalar = .integer(number)
        case let number as Int32: node.scalar = .integer(Int64(number))
        case let number as UInt64: node.scalar = .unsigned(number)
        case let number as UInt32: node.scalar = .unsigned(UInt64(number))
        case let number as Double: node.scalar = .float(number)
        case let number as Float: node.scalar = .float(Double(number))
        case let date as Date: node.scalar = .text(RFC3339.format(date))
        case let data as Data: node.scalar = .bytes(Array(data))
        default: try value.encode(to: Encoder(node: node, codingPath: codingPath))
        }
    }

    fileprivate func openMap() {
        if entries == nil {
            entries = []
            scalar = nil
            items = nil
        }
    }

    fileprivate func openArray() {
        if items == nil {
            items = []
            scalar = nil
            entries = nil
        }
    }

    fileprivate func child(forKey key: String) -> CBORNode {
        let child = CBORNode()
        if let index = entries?.firstIndex(where: { $0.key == key }) {
            entries?[index].node = child
        } else {
            entries?.append((key, child))
        }
        return child
    }

    fileprivate func appendItem() -> CBORNode {
        let child = CBORNode()
        items?.append(child)
        return child
    }

    fileprivate var itemCount: Int { items?.count ?? 0 }

    fileprivate func setScalar(_ value: CBORValue) {
        scalar = value
    }

    // MARK: Encoder

    private struct Encoder: Swift.Encoder {
        let node: CBORNode
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            node.openMap()
            return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            node.openArray()
            return UnkeyedContainer(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleValueContainer(node: node, codingPath: codingPath)
        }
    }

    private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: CBORNode
        let codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) throws {
            node.child(forKey: key.stringValue).setScalar(.null)
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try CBORNode.encode(value, into: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            Encoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            Encoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
        }

        mutating func superEncoder() -> any Swift.Encoder {
            Encoder(node: node.child(forKey: "super"), codingPath: codingPath)
        }

        mutating func superEncoder(forKey key: Key) -> any Swift.Encoder {
            Encoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
        }
    }

    private struct UnkeyedContainer: UnkeyedEncodingContainer {
        let node: CBORNode
        let codingPath: [any CodingKey]
        var count: Int { node.itemCount }

        private var nextKey: any CodingKey { IndexKey(count) }

        mutating func encodeNil() throws {
            node.appendItem().setScalar(.null)
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            let path = codingPath + [nextKey]
            try CBORNode.encode(value, into: node.appendItem(), codingPath: path)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let path = codingPath + [nextKey]
            return Encoder(node: node.appendItem(), codingPath: path).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let path = codingPath + [nextKey]
            return Encoder(node: node.appendItem(), codingPath: path).unkeyedContainer()
        }

        mutating func superEncoder() -> any Swift.Encoder {
            let path = codingPath + [nextKey]
            return Encoder(node: node.appendItem(), codingPath: path)
        }
    }

    private struct SingleValueContainer: SingleValueEncodingContainer {
        let node: CBORNode
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws {
            node.setScalar(.null)
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try CBORNode.encode(value, into: node, codingPath: codingPath)
        }
    }
}

/// An array index as a coding key, for error paths.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }

    init(_ index: Int) {
        intValue = index
    }

    init?(stringValue: String) {
        nil
    }

    init?(intValue: Int) {
        self.intValue = intValue
    }
}
