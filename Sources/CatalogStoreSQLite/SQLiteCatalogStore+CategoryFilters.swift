import CatalogAPI
import CatalogStore
import Foundation
import GRDB

/// Keeping the filters bound to `source: categories` equal to the categories.
extension SQLiteCatalogStore {
    /// The categories as a JSON array of options, in position order: what a bound filter
    /// stores (the same SQL as migration "v2"), so comparing it needs no decoding.
    static let categoryOptionsSQL = """
        SELECT json_group_array(json_object('id', id, 'title', name, 'icon', icon)) AS options
        FROM (SELECT id, name, icon FROM category ORDER BY position)
        """

    /// The id and the new options JSON of every bound filter whose options differ from the
    /// categories. CROSS JOIN keeps this order: the few filter rows, then point lookups of their
    /// changes (never a scan of every retained change), the mirror built once.
    static let staleCategoryFiltersSQL = """
        SELECT f.id, mirror.options
        FROM filter f
        CROSS JOIN filter_change c ON c.filterId = f.id AND c.revision = f.revision
        CROSS JOIN filter_change o ON o.filterId = f.id AND o.revision = f.optionsRevision
        CROSS JOIN (\(categoryOptionsSQL)) AS mirror
        WHERE f.deleted = 0 AND c.source = 'categories' AND o.options IS NOT mirror.options
        ORDER BY f.id
        """

    static func categoryOptionsJSON(_ db: Database) throws -> String {
        try String.fetchOne(db, sql: categoryOptionsSQL) ?? "[]"
    }

    /// Gives every bound filter whose options differ from the categories the new options (a
    /// selection that vanished is cleared in the same revision) and notifies after commit. Run by
    /// every category write that may change names, icons, positions or the set of categories,
    /// inside its transaction; one query when nothing differs.
    func syncCategoryFilters(_ db: Database) throws {
        let stale = try Row.fetchAll(db, sql: Self.staleCategoryFiltersSQL)
        guard let optionsJSON: String = stale.first?[1] else { return }
        let options = try StoredFilter.decodeOptions(optionsJSON)
        let now = StoredFilter.timestamp()
        var changes: [FilterChange] = []
        for row in stale {
            guard let current = try currentFilter(db, id: row[0]) else { continue }
            let next = FilterRules.replacingOptions(of: current, with: options)
            let committed = FilterRules.committed(next, after: current, now: now)
            guard committed.revision != current.revision else { continue }
            try appendFilterChange(db, committed, optionsJSON: optionsJSON)
            changes.append(.updated(committed))
        }
        notifyAfterCommit(db, changes)
    }
}
