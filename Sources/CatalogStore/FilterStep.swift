import CatalogAPI
import Foundation

/// One edit of a filter's option list. Each carries what undoing it needs, so a state can be
/// rebuilt from the one after it as well as the one before.
public enum OptionEdit: Sendable, Hashable {
    /// `option` inserted at index `at`.
    case insert(FilterOption, at: Int)
    /// `option`, at index `at`, removed.
    case remove(FilterOption, at: Int)
    /// The option at index `at` changed from `from` to `to` (same id, new title or icon).
    case update(from: FilterOption, to: FilterOption, at: Int)

    /// The edit that undoes this one.
    public var inverse: OptionEdit {
        switch self {
        case .insert(let option, let index): .remove(option, at: index)
        case .remove(let option, let index): .insert(option, at: index)
        case .update(let from, let to, let index): .update(from: to, to: from, at: index)
        }
    }

    /// About how many bytes the edit takes stored: what history retention counts.
    var storedSize: Int {
        func size(_ option: FilterOption) -> Int { 24 + option.title.utf8.count + (option.icon?.utf8.count ?? 0) }
        return switch self {
        case .insert(let option, _), .remove(let option, _): 8 + size(option)
        case .update(let from, let to, _): 8 + size(from) + size(to)
        }
    }
}

/// What one committed revision of a filter changed: the title, source, selection,
/// presentation and time of the state it leads to, and the edits that turn the options before
/// it into the options after it (none when the options did not change).
///
/// A filter's retained history is its current state and its last steps: the state at any
/// retained revision is the current one with the later steps undone (`FilterStep.states`).
/// A step stores a few bytes however many options the filter has, unless it replaces them.
public struct FilterStep: Sendable, Hashable {
    public var revision: Int64
    public var title: String
    public var source: FilterSource?
    public var selectedId: Int64?
    public var presentation: FilterPresentation
    public var updatedAt: Date
    public var edits: [OptionEdit]
    /// Whether the step created the filter (first defined, or defined again after a Delete):
    /// its edits then apply to no options, and no history goes back past it.
    public var creates: Bool

    public init(
        revision: Int64, title: String, source: FilterSource?, selectedId: Int64?, presentation: FilterPresentation,
        updatedAt: Date, edits: [OptionEdit], creates: Bool = false
    ) {
        self.revision = revision
        self.title = title
        self.source = source
        self.selectedId = selectedId
        self.presentation = presentation
        self.updatedAt = updatedAt
        self.edits = edits
        self.creates = creates
    }

    /// The step that leads to `state`, with `edits`.
    public init(to state: FilterState, edits: [OptionEdit], creates: Bool = false) {
        self.init(
            revision: state.revision, title: state.title, source: state.source, selectedId: state.selectedId,
            presentation: state.presentation, updatedAt: state.updatedAt, edits: edits, creates: creates)
    }

    /// The step from `previous` (`nil`: the step creates the filter) to `next`.
    public init(from previous: FilterState?, to next: FilterState) {
        self.init(to: next, edits: OptionEdits.between(previous?.options ?? [], next.options), creates: previous == nil)
    }

    /// About how many bytes the step's option edits take stored (none when the options did
    /// not change): what history retention counts in bytes.
    public var storedSize: Int {
        edits.reduce(0) { $0 + $1.storedSize }
    }

    /// The state this step leads to from `previous` (the state at `revision - 1`; for a step
    /// that creates the filter, whatever the filter was before it was deleted).
    public func applied(to previous: FilterState) -> FilterState {
        var next = previous
        if creates { next.options = [] }
        OptionEdits.apply(edits, to: &next.options)
        next.set(self)
        return next
    }

    /// The states at the revisions of `steps` (consecutive, oldest first, the last one leading
    /// to `current`), oldest first: `current` with the later steps undone one by one.
    public static func states(current: FilterState, steps: some BidirectionalCollection<FilterStep>) -> [FilterState] {
        guard let last = steps.last, last.revision == current.revision else { return [] }
        var states = [current]
        var state = current
        var later = last
        for step in steps.reversed().dropFirst() {
            OptionEdits.undo(later.edits, on: &state.options)
            state.set(step)
            states.append(state)
            later = step
        }
        return states.reversed()
    }
}

extension FilterState {
    /// Takes the scalars of `step`: its revision, title, source, selection, presentation and time.
    package mutating func set(_ step: FilterStep) {
        revision = step.revision
        title = step.title
        source = step.source
        selectedId = step.selectedId
        presentation = step.presentation
        updatedAt = step.updatedAt
    }
}

/// Edits of option lists: applying, undoing, and finding the edits between two lists.
public enum OptionEdits {
    /// Applies `edits` in order. Indices are those of the list as each edit finds it.
    public static func apply(_ edits: [OptionEdit], to options: inout [FilterOption]) {
        for edit in edits {
            switch edit {
            case .insert(let option, let index): options.insert(option, at: index)
            case .remove(_, let index): options.remove(at: index)
            case .update(_, let to, let index): options[index] = to
            }
        }
    }

    /// Undoes `edits`, which led to `options`.
    public static func undo(_ edits: [OptionEdit], on options: inout [FilterOption]) {
        for edit in edits.reversed() {
            apply([edit.inverse], to: &options)
        }
    }

    /// Edits that turn `old` into `new` (ids unique in each): the options that leave or move
    /// are removed, those that stay and changed updated, then those that arrive or moved
    /// inserted. The options that stay in place are the longest run of common options whose
    /// order both lists keep, so a move costs two edits whatever the number of options.
    public static func between(_ old: [FilterOption], _ new: [FilterOption]) -> [OptionEdit] {
        if old == new { return [] }
        var newIndex: [Int64: Int] = [:]
        newIndex.reserveCapacity(new.count)
        for (index, option) in new.enumerated() { newIndex[option.id] = index }
        // Options of `old` that `new` has, with their index in `new`, in `old`'s order.
        let common = old.indices.compactMap { index in newIndex[old[index].id].map { (old: index, new: $0) } }
        let staying = Set(longestIncreasingRun(common.map(\.new)).map { common[$0].old })
        var edits: [OptionEdit] = []
        for index in old.indices.reversed() where !staying.contains(index) {
            edits.append(.remove(old[index], at: index))
        }
        // What stays, in order: its index in the list now is its rank.
        for (rank, index) in staying.sorted().enumerated() {
            let replacement = new[newIndex[old[index].id]!]
            if replacement != old[index] { edits.append(.update(from: old[index], to: replacement, at: rank)) }
        }
        let stayingIDs = Set(staying.map { old[$0].id })
        for (index, option) in new.enumerated() where !stayingIDs.contains(option.id) {
            edits.append(.insert(option, at: index))
        }
        return edits
    }

    /// The positions in `values` of one longest strictly increasing subsequence.
    private static func longestIncreasingRun(_ values: [Int]) -> [Int] {
        var tails: [Int] = []  // tails[k]: position of the smallest tail of a run of length k + 1
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var run: [Int] = []
        var position = tails.last ?? -1
        while position >= 0 {
            run.append(position)
            position = previous[position]
        }
        return run.reversed()
    }
}

/// Stored as a short JSON array: `["i", at, option]`, `["r", at, option]`,
/// `["u", at, from, to]`.
extension OptionEdit: Codable {
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let kind = try container.decode(String.self)
        let index = try container.decode(Int.self)
        switch kind {
        case "i": self = .insert(try container.decode(FilterOption.self), at: index)
        case "r": self = .remove(try container.decode(FilterOption.self), at: index)
        case "u": self = .update(from: try container.decode(FilterOption.self), to: try container.decode(FilterOption.self), at: index)
        default: throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown option edit '\(kind)'")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        switch self {
        case .insert(let option, let index):
            try container.encode("i")
            try container.encode(index)
            try container.encode(option)
        case .remove(let option, let index):
            try container.encode("r")
            try container.encode(index)
            try container.encode(option)
        case .update(let from, let to, let index):
            try container.encode("u")
            try container.encode(index)
            try container.encode(from)
            try container.encode(to)
        }
    }
}
