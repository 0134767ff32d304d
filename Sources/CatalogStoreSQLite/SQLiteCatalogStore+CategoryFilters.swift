import CatalogAPI
import CatalogStore
import Foundation
import GRDB

/// Keeping the filters bound to `source: categories` equal to the categories.
extension SQLiteCatalogStore {
    /// The filters that exist and are bound to the categories: a point lookup of each
    /// filter's current step (CROSS JOIN keeps `filter` first).
    static let boundFiltersSQL = """
        SELECT f.id FROM filter f
        CROSS JOIN filter_step c ON c.filterId = f.id AND c.revision = f.revision
        WHERE f.deleted = 0 AND c.source = 'categories'
        ORDER BY f.id
        """

    /// The states of the filters bound to the categories, before a category write changes
    /// anything: what `syncCategoryFilters` applies the write to. Read first in its transaction;
    /// taken from the committed states, so that their options are edited in place.
    func boundFilters(_ db: Database) throws -> [FilterState] {
        try String.fetchAll(db.cachedStatement(sql: Self.boundFiltersSQL)).compactMap { id in
            try committedFilters.take(id) ?? Self.fetchFilter(db, id: id)
        }
    }

    /// Applies a category write to the bound filters, `bound` as `boundFilters` read them before
    /// it: `edits` when the write knows what it changed (`CategoryMirror`), else the edits
    /// between each filter's options and the categories now. A selection whose option went is
    /// cleared in the same revision; the observer is told after commit.
    ///
    /// Each state is edited in place: at ten thousand categories, a copy of the options would
    /// cost a category write more than everything else it does.
    func syncCategoryFilters(_ db: Database, _ bound: consuming [FilterState], edits known: [OptionEdit]? = nil) throws {
        guard !bound.isEmpty, known?.isEmpty != true else { return }
        let mirror = known == nil ? try Self.categoryOptions(db) : []
        let now = StoredFilter.timestamp()
        var changes: [FilterChange] = []
        bound.reverse()
        while var state = bound.popLast() {
            let edits = known ?? OptionEdits.between(state.options, mirror)
            guard !edits.isEmpty else { continue }
            FilterRules.editOptions(of: &state, edits, now: now)
            let step = FilterStep(to: state, edits: edits)
            try appendFilterStep(db, state, step, storingOptions: false)
            changes.append(.updated(state, step))
        }
        notifyAfterCommit(db, changes)
    }
}
