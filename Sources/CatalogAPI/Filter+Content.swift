extension FilterPresentation {
    /// The other presentation; an unknown one stays as it is.
    public var toggled: FilterPresentation {
        switch self {
        case .expanded: .collapsed
        case .collapsed: .expanded
        case .unknown: self
        }
    }
}

extension FilterState {
    /// Equal apart from `revision` and `updatedAt`: whether a write changed anything.
    public func hasSameContent(as other: FilterState) -> Bool {
        filterId == other.filterId && title == other.title && options == other.options
            && selectedId == other.selectedId && presentation == other.presentation && source == other.source
    }
}
