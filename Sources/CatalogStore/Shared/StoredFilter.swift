import CatalogAPI
import Foundation

/// How a store keeps filter states and steps in columns: options and option edits as JSON
/// text, the source and the presentation as their raw values, `updatedAt` in milliseconds
/// since 1970 (so a state reads back exactly as written).
package enum StoredFilter {
    /// How many steps of each filter a store keeps at least, for Watch resume, unless they
    /// take more than `retainedBytes`.
    package static let retainedChanges = 1024
    /// How many bytes of option edits (`FilterStep.storedSize`, the length of the stored JSON)
    /// a store keeps at most per filter, however few steps that is: 1024 steps that each
    /// replace a thousand options would otherwise take a hundred megabytes. A selection or a
    /// presentation edits no option, one category a hundred bytes' worth; the newest step is
    /// always kept.
    package static let retainedBytes = 8 << 20
    /// Pruning is looked at once every this many revisions, so a filter keeps fewer than
    /// `retainedChanges + pruneBatch` changes and most writes skip it.
    package static let pruneBatch = 64

    /// A state from its stored columns and its decoded options; INTERNAL `storage` when a raw
    /// value is unknown.
    package static func state(
        filterID: String, title: String, source: String?, options: [FilterOption], selectedID: Int64?, presentation: String,
        revision: Int64, updatedAtMilliseconds: Int64
    ) throws -> FilterState {
        guard let knownPresentation = FilterPresentation(rawValue: presentation) else {
            throw CatalogError.storage("filter '\(filterID)' has an unknown presentation")
        }
        var knownSource: FilterSource?
        if let source {
            guard let known = FilterSource(rawValue: source) else { throw CatalogError.storage("filter '\(filterID)' has an unknown source") }
            knownSource = known
        }
        return FilterState(
            filterId: filterID, title: title, options: options, selectedId: selectedID,
            presentation: knownPresentation, revision: revision, updatedAt: date(milliseconds: updatedAtMilliseconds),
            source: knownSource)
    }

    package static func encodeOptions(_ options: [FilterOption]) throws -> String {
        String(decoding: try JSONEncoder().encode(options), as: UTF8.self)
    }

    /// Option edits as stored: `nil` when there are none.
    package static func encodeEdits(_ edits: [OptionEdit]) throws -> String? {
        edits.isEmpty ? nil : String(decoding: try JSONEncoder().encode(edits), as: UTF8.self)
    }

    package static func decodeEdits(_ json: String?) throws -> [OptionEdit] {
        guard let json else { return [] }
        return try JSONDecoder().decode([OptionEdit].self, from: Data(json.utf8))
    }

    /// A step from its stored columns; INTERNAL `storage` when a raw value is unknown.
    package static func step(
        filterID: String, title: String, source: String?, edits: String?, selectedID: Int64?, presentation: String,
        revision: Int64, updatedAtMilliseconds: Int64, creates: Bool
    ) throws -> FilterStep {
        let scalars = try state(
            filterID: filterID, title: title, source: source, options: [], selectedID: selectedID, presentation: presentation,
            revision: revision, updatedAtMilliseconds: updatedAtMilliseconds)
        return FilterStep(to: scalars, edits: try decodeEdits(edits), creates: creates)
    }

    /// The options stored as `json`; decoded once per distinct text (see `DecodedOptionsCache`).
    package static func decodeOptions(_ json: String) throws -> [FilterOption] {
        try decodedOptions.options(for: json) { try JSONDecoder().decode([FilterOption].self, from: Data($0.utf8)) }
    }

    /// Shared by every store: entries are keyed by their text, so they hold for any database.
    private static let decodedOptions = DecodedOptionsCache(maxBytes: 8 << 20)

    /// Now, to the millisecond: what `updatedAt` keeps, so a state reads back equal.
    package static func timestamp() -> Date {
        date(milliseconds: milliseconds(Date()))
    }

    package static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    package static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
