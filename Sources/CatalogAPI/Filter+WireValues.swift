// The filter enums a server sends, open to the values a newer server adds (see `OpenWireEnum`).
// Two values are equal when they are the same on the wire (as `RawRepresentable`'s `==`, which
// concrete code may pick, says too): `.unknown("expanded")` equals `.expanded`.

extension FilterPresentation: RawRepresentable, CaseIterable, Codable, OpenWireEnum {
    /// The presentations this version knows.
    public static var allCases: [FilterPresentation] { [.expanded, .collapsed] }

    /// A presentation this version knows; `nil` for any other text, which decoding an answer
    /// keeps as `.unknown`.
    public init?(rawValue: String) {
        switch rawValue {
        case "expanded": self = .expanded
        case "collapsed": self = .collapsed
        default: return nil
        }
    }

    /// The value on the wire.
    public var rawValue: String {
        switch self {
        case .expanded: "expanded"
        case .collapsed: "collapsed"
        case .unknown(let value): value
        }
    }

    public init(from decoder: any Decoder) throws { try self.init(wireValueFrom: decoder) }

    public func encode(to encoder: any Encoder) throws { try encodeWireValue(to: encoder) }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawValue == rhs.rawValue }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}

extension FilterSource: RawRepresentable, CaseIterable, Codable, OpenWireEnum {
    /// The sources this version knows.
    public static var allCases: [FilterSource] { [.categories] }

    /// A source this version knows; `nil` for any other text, which decoding an answer keeps
    /// as `.unknown`.
    public init?(rawValue: String) {
        switch rawValue {
        case "categories": self = .categories
        default: return nil
        }
    }

    /// The value on the wire.
    public var rawValue: String {
        switch self {
        case .categories: "categories"
        case .unknown(let value): value
        }
    }

    public init(from decoder: any Decoder) throws { try self.init(wireValueFrom: decoder) }

    public func encode(to encoder: any Encoder) throws { try encodeWireValue(to: encoder) }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawValue == rhs.rawValue }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}

extension FilterEvent.Kind: RawRepresentable, CaseIterable, Codable, OpenWireEnum {
    /// The kinds this version knows.
    public static var allCases: [FilterEvent.Kind] { [.snapshot, .change, .synced, .heartbeat] }

    /// A kind this version knows; `nil` for any other text, which decoding an event keeps as
    /// `.unknown`.
    public init?(rawValue: String) {
        switch rawValue {
        case "snapshot": self = .snapshot
        case "change": self = .change
        case "synced": self = .synced
        case "heartbeat": self = .heartbeat
        default: return nil
        }
    }

    /// The value on the wire.
    public var rawValue: String {
        switch self {
        case .snapshot: "snapshot"
        case .change: "change"
        case .synced: "synced"
        case .heartbeat: "heartbeat"
        case .unknown(let value): value
        }
    }

    public init(from decoder: any Decoder) throws { try self.init(wireValueFrom: decoder) }

    public func encode(to encoder: any Encoder) throws { try encodeWireValue(to: encoder) }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawValue == rhs.rawValue }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}
