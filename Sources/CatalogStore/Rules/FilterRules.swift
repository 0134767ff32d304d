import CatalogAPI
import Foundation

/// Validation of `Filters` requests and the pure state transitions of a filter, free of any
/// store. Stores apply these inside their transactions and bump the revision only when the
/// content changed.
///
/// Limits (`TextLimit`, checked in bytes first): a filter id is 1 to 64 characters of
/// `[a-z0-9._-]` (so 64 bytes) starting with a letter or digit; a title (filter and option) is
/// 1 to 100 characters and at most 400 bytes of UTF-8 once trimmed; an option icon follows the
/// category icon rules (64 bytes). Explicit options are at most 1000, and their titles and icons
/// together at most 65,536 bytes of UTF-8 (`maxOptionsBytes`), so that one state, which every
/// Watch event carries whole, stays small. A filter bound to the categories mirrors them
/// whatever their number.
///
/// Decisions where the contract leaves room:
/// - Titles follow the category name rules: trimmed, no control characters.
/// - Explicit options have unique ids. `options` and `source` together are INVALID_ARGUMENT;
///   neither means a filter without options.
/// - A new filter starts expanded with "all" selected.
public enum FilterRules {
    /// The filter every store has, bound to the categories; it cannot be deleted or unbound.
    public static let builtinFilterID = "categories"
    /// The built-in filter's title on a fresh store.
    public static let builtinFilterTitle = "Categories"
    /// A filter id (ASCII only).
    public static let filterIDLimit = TextLimit(characters: 64, bytes: 64)
    /// A filter's or an option's title, once trimmed (and at least 1 character).
    public static let titleLimit = TextLimit(characters: 100, bytes: 400)
    public static let maxOptions = 1000
    /// The most bytes of UTF-8 that the titles and icons of a filter's explicit options take together.
    public static let maxOptionsBytes = 65_536
    /// How long a Watch may stay silent before a heartbeat, by default and at most.
    public static let defaultHeartbeatSeconds = 15
    public static let maxHeartbeatSeconds = 3600

    // MARK: Validation

    public static func filterID(_ raw: String, field: String = "filterId") throws(CatalogError) -> String {
        let bytes = raw.utf8
        guard let first = bytes.first, bytes.count <= filterIDLimit.bytes, isLowerAlphanumeric(first),
            bytes.allSatisfy({ isLowerAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") })
        else {
            throw .invalidField(
                field, "must be 1 to \(filterIDLimit.characters) characters of a-z, 0-9, '.', '_' and '-', starting with a letter or digit")
        }
        return raw
    }

    public static func title(_ raw: String, field: String = "title") throws(CatalogError) -> String {
        try TextRules.text(raw, field: field, limit: titleLimit, required: true)
    }

    /// A checked `Define` request.
    public static func definition(_ request: DefineFilterRequest) throws(CatalogError) -> FilterDefinition {
        let id = try filterID(request.filterId)
        let title = try title(request.title)
        switch (request.options, request.source) {
        case (.some, .some):
            throw .invalidField("source", "a filter takes either options or a source, not both")
        case (_, .some(.unknown(let source))):
            throw unknownSource(source)
        case (_, .some(let source)):
            return FilterDefinition(filterID: id, title: title, content: .source(source))
        case (let options, nil):
            return FilterDefinition(filterID: id, title: title, content: .options(try self.options(options ?? [])))
        }
    }

    /// The error for a source this server does not know. A decoded request cannot name one
    /// (its decoder refuses it); a `FilterSource.unknown` built in code gets this.
    public static func unknownSource(_ source: String) -> CatalogError {
        .invalidField("source", "'\(source)' is not a known source")
    }

    static func options(_ raw: [FilterOption]) throws(CatalogError) -> [FilterOption] {
        guard raw.count <= maxOptions else {
            throw .invalidField("options", "must hold at most \(maxOptions) options, not \(raw.count)")
        }
        var seen = Set<Int64>()
        var options: [FilterOption] = []
        options.reserveCapacity(raw.count)
        var bytes = 0
        for (index, option) in raw.enumerated() {
            guard seen.insert(option.id).inserted else {
                throw .invalidField("options[\(index)].id", "option id \(option.id) appears twice")
            }
            let title = try title(option.title, field: "options[\(index)].title")
            let icon = try option.icon.flatMap { icon throws(CatalogError) in try CategoryRules.icon(icon, field: "options[\(index)].icon") }
            bytes += title.utf8.count + (icon?.utf8.count ?? 0)
            if bytes > maxOptionsBytes {
                throw .invalidField("options", "titles and icons must take at most \(maxOptionsBytes) bytes of UTF-8 together")
            }
            options.append(FilterOption(id: option.id, title: title, icon: icon))
        }
        return options
    }

    /// A checked heartbeat interval.
    public static func heartbeatSeconds(_ raw: Int?) throws(CatalogError) -> Int {
        guard let raw else { return defaultHeartbeatSeconds }
        guard (1...maxHeartbeatSeconds).contains(raw) else {
            throw .invalidField("heartbeatSeconds", "must be 1 to \(maxHeartbeatSeconds), not \(raw)")
        }
        return raw
    }

    /// A checked resume revision.
    public static func sinceRevision(_ raw: Int64?) throws(CatalogError) -> Int64? {
        guard let raw else { return nil }
        guard raw >= 0 else { throw .invalidField("sinceRevision", "must be 0 or more, not \(raw)") }
        return raw
    }

    // MARK: Transitions (content only: the store sets revision and updatedAt)

    /// Applies `edits` (at least one) to the options of `state`, in place, as the next revision
    /// stamped `now`; a selection whose option they removed is cleared. Costs the edits, not the
    /// options: the selection is looked for in the edits.
    public static func editOptions(of state: inout FilterState, _ edits: [OptionEdit], now: Date) {
        OptionEdits.apply(edits, to: &state.options)
        state.revision += 1
        state.updatedAt = now
        guard let selected = state.selectedId else { return }
        var present = true
        for edit in edits {
            switch edit {
            case .remove(let option, _) where option.id == selected: present = false
            case .insert(let option, _) where option.id == selected: present = true
            default: break
            }
        }
        if !present { state.selectedId = nil }
    }

    /// `state` with new options; a selection that is no longer among them is cleared.
    public static func replacingOptions(of state: FilterState, with options: [FilterOption]) -> FilterState {
        var next = state
        next.options = options
        if let selected = next.selectedId, !options.contains(where: { $0.id == selected }) {
            next.selectedId = nil
        }
        return next
    }

    /// The state a `Define` leads to: a new filter (revision 0, for the store to bump), or
    /// `current` with the new title, source and options. `options` are the explicit ones or,
    /// for a bound filter, the mirrored ones.
    public static func defined(
        _ definition: FilterDefinition, options: [FilterOption], over current: FilterState?, now: Date
    ) throws(CatalogError) -> FilterState {
        let source: FilterSource? = if case .source(let source) = definition.content { source } else { nil }
        if definition.filterID == builtinFilterID, source != .categories {
            throw .builtinFilter(definition.filterID)
        }
        guard var next = current else {
            return FilterState(
                filterId: definition.filterID, title: definition.title, options: options, revision: 0, updatedAt: now,
                source: source)
        }
        next.title = definition.title
        next.source = source
        return replacingOptions(of: next, with: options)
    }

    /// The state an edit leads to. NOT_FOUND `unknownOption` for a missing option.
    public static func edited(_ state: FilterState, _ edit: FilterEdit) throws(CatalogError) -> FilterState {
        var next = state
        switch edit {
        case .select(nil, _):
            next.selectedId = nil
        case .select(let optionID?, let toggle):
            guard state.options.contains(where: { $0.id == optionID }) else { throw .unknownOption(optionID) }
            next.selectedId = toggle && state.selectedId == optionID ? nil : optionID
        case .setPresentation(let presentation):
            next.presentation = presentation
        case .togglePresentation:
            next.presentation = state.presentation.toggled
        }
        return next
    }

    /// `next` as the successor of `current`: the same state when nothing changed, else the
    /// next revision stamped `now`.
    public static func committed(_ next: FilterState, after current: FilterState?, now: Date) -> FilterState {
        if let current, next.hasSameContent(as: current) { return current }
        var stamped = next
        stamped.revision = (current?.revision ?? next.revision) + 1
        stamped.updatedAt = now
        return stamped
    }

    private static func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
