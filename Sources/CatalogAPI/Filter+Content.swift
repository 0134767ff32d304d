import Foundation

/// Whether a filter's options are shown.
public enum FilterPresentation: Sendable, Hashable {
    case expanded, collapsed
    /// A presentation that a newer server sent and this version does not know, as it was sent.
    case unknown(String)

    /// The other presentation; an unknown one stays as it is.
    public var toggled: FilterPresentation {
        switch self {
        case .expanded: .collapsed
        case .collapsed: .expanded
        case .unknown: self
        }
    }
}

/// Where a filter's options come from when they are not listed explicitly.
public enum FilterSource: Sendable, Hashable {
    /// The categories in position order: option id = category id, title = name, icon = icon.
    case categories
    /// A source that a newer server sent and this version does not know, as it was sent.
    case unknown(String)
}

/// One choice of a filter.
public struct FilterOption: Codable, Sendable, Hashable, Identifiable {
    public var id: Int64
    public var title: String
    public var icon: String?

    public init(id: Int64, title: String, icon: String? = nil) {
        self.id = id
        self.title = title
        self.icon = icon
    }
}

/// The shared state of one filter, as the contract's `FilterState` message.
public struct FilterState: Codable, Sendable, Hashable {
    public var filterId: String
    public var title: String
    public var options: [FilterOption]
    /// The selected option; absent means "all".
    public var selectedId: Int64?
    public var presentation: FilterPresentation
    /// Starts at 1 and grows by exactly 1 per effective change, across restarts, Delete and Define.
    public var revision: Int64
    public var updatedAt: Date
    /// Present when the options mirror another resource.
    public var source: FilterSource?

    public init(
        filterId: String, title: String, options: [FilterOption], selectedId: Int64? = nil,
        presentation: FilterPresentation = .expanded, revision: Int64, updatedAt: Date, source: FilterSource? = nil
    ) {
        self.filterId = filterId
        self.title = title
        self.options = options
        self.selectedId = selectedId
        self.presentation = presentation
        self.revision = revision
        self.updatedAt = updatedAt
        self.source = source
    }

    /// Equal apart from `revision` and `updatedAt`: whether a write changed anything.
    public func hasSameContent(as other: FilterState) -> Bool {
        filterId == other.filterId && title == other.title && options == other.options
            && selectedId == other.selectedId && presentation == other.presentation && source == other.source
    }
}

/// One message of a `Filters/Watch` stream.
public struct FilterEvent: Codable, Sendable, Hashable {
    /// What an event says; a newer server may send kinds this version does not know.
    public enum Kind: Sendable, Hashable {
        /// The whole current state; first event of a fresh subscription, or a reset.
        case snapshot
        /// A later state.
        case change
        /// Everything up to `revision` has been delivered; live changes follow.
        case synced
        /// Nothing happened for `heartbeatSeconds`; carries the current revision.
        case heartbeat
        /// A kind that a newer server sent and this version does not know, as it was sent.
        case unknown(String)
    }

    public var kind: Kind
    public var revision: Int64
    /// On every `change`: the revision of the last event with a state this subscriber received.
    public var previousRevision: Int64?
    /// On every `snapshot` and `change`.
    public var state: FilterState?
    /// `true` only on a snapshot that replaces history the subscriber asked for but which is gone.
    public var reset: Bool?

    public init(kind: Kind, revision: Int64, previousRevision: Int64? = nil, state: FilterState? = nil, reset: Bool? = nil) {
        self.kind = kind
        self.revision = revision
        self.previousRevision = previousRevision
        self.state = state
        self.reset = reset
    }
}
