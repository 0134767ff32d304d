/// Messages of `catalog.v1.Filters`.

public struct DefineFilterRequest: Codable, Sendable, Hashable {
    /// `[a-z0-9._-]`, 1 to 64 characters, starting with a letter or digit.
    public var filterId: String
    public var title: String
    /// Explicit options; not with `source`.
    public var options: [FilterOption]?
    public var source: FilterSource?

    public init(filterId: String, title: String, options: [FilterOption]? = nil, source: FilterSource? = nil) {
        self.filterId = filterId
        self.title = title
        self.options = options
        self.source = source
    }

    /// As the synthesized decoder, but a `source` this version does not know fails (see `KnownValue`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        filterId = try container.decode(String.self, forKey: .filterId)
        title = try container.decode(String.self, forKey: .title)
        options = try container.decodeIfPresent([FilterOption].self, forKey: .options)
        source = try container.decodeIfPresent(KnownValue<FilterSource>.self, forKey: .source)?.value
    }
}

public struct FilterIDRequest: Codable, Sendable, Hashable {
    public var filterId: String

    public init(filterId: String) { self.filterId = filterId }
}

public struct FilterList: Codable, Sendable, Hashable {
    public var filters: [FilterState]

    public init(filters: [FilterState]) { self.filters = filters }
}

public struct SelectFilterRequest: Codable, Sendable, Hashable {
    public var filterId: String
    /// Absent: "all".
    public var optionId: Int64?
    /// Selecting the option that is already selected clears the selection.
    public var toggle: Bool?

    public init(filterId: String, optionId: Int64? = nil, toggle: Bool? = nil) {
        self.filterId = filterId
        self.optionId = optionId
        self.toggle = toggle
    }
}

public struct SetPresentationRequest: Codable, Sendable, Hashable {
    public var filterId: String
    public var presentation: FilterPresentation

    public init(filterId: String, presentation: FilterPresentation) {
        self.filterId = filterId
        self.presentation = presentation
    }

    /// As the synthesized decoder, but a `presentation` this version does not know fails (see `KnownValue`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        filterId = try container.decode(String.self, forKey: .filterId)
        presentation = try container.decode(KnownValue<FilterPresentation>.self, forKey: .presentation).value
    }
}

/// How a Watch subscriber that falls behind is served.
public enum FilterDelivery: String, Codable, Sendable, CaseIterable {
    /// Skip to the newest state (the default); memory stays bounded.
    case latest
    /// Every change in order; OUT_OF_RANGE `revisionCompacted` when the subscriber falls behind the history.
    case everyChange
}

public struct WatchFilterRequest: Codable, Sendable, Hashable {
    public var filterId: String
    /// Resume after this revision instead of starting with a snapshot.
    public var sinceRevision: Int64?
    public var delivery: FilterDelivery?
    /// 1 to 3600; default 15.
    public var heartbeatSeconds: Int?

    public init(filterId: String, sinceRevision: Int64? = nil, delivery: FilterDelivery? = nil, heartbeatSeconds: Int? = nil) {
        self.filterId = filterId
        self.sinceRevision = sinceRevision
        self.delivery = delivery
        self.heartbeatSeconds = heartbeatSeconds
    }
}
