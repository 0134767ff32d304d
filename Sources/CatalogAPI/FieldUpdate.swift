/// A field of an update request that distinguishes "absent" (leave it) from `null` (clear it).
public enum FieldUpdate<Value: Codable & Sendable & Hashable>: Sendable, Hashable {
    /// The key was absent: keep the current value.
    case unchanged
    /// The key was `null`: clear the value.
    case clear
    /// The key had a value: set it.
    case set(Value)

    /// The value after the update of `current`.
    public func applied(to current: Value?) -> Value? {
        switch self {
        case .unchanged: current
        case .clear: nil
        case .set(let value): value
        }
    }

    /// Reads the field from a keyed container.
    public init<Key: CodingKey>(from container: KeyedDecodingContainer<Key>, forKey key: Key) throws {
        if !container.contains(key) {
            self = .unchanged
        } else if try container.decodeNil(forKey: key) {
            self = .clear
        } else {
            self = .set(try container.decode(Value.self, forKey: key))
        }
    }

    /// Writes the field: nothing when unchanged, `null` when cleared.
    public func encode<Key: CodingKey>(to container: inout KeyedEncodingContainer<Key>, forKey key: Key) throws {
        switch self {
        case .unchanged: break
        case .clear: try container.encodeNil(forKey: key)
        case .set(let value): try container.encode(value, forKey: key)
        }
    }
}
