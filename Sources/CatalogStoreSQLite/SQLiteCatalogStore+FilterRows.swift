import CatalogAPI
import CatalogStore
import Foundation
import GRDB

/// Reading and writing filter states and steps (tables `filter` and `filter_step`, see
/// migration "v4"), inside a transaction.
extension SQLiteCatalogStore {
    /// A filter's row: its latest revision (reserved when deleted) and whether it was deleted.
    struct FilterRow {
        var revision: Int64
        var deleted: Bool
    }

    /// The columns `filterStep(_:)` reads, in its order.
    static let filterStepColumns = "filterId, title, source, edits, selectedId, presentation, revision, updatedAt, creates"

    static func fetchFilterRow(_ db: Database, id: String) throws -> FilterRow? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT revision, deleted FROM filter WHERE id = ?"), arguments: [id])
            .map { FilterRow(revision: $0[0], deleted: $0[1]) }
    }

    /// The current state of a filter that exists (not deleted).
    static func fetchFilter(_ db: Database, id: String) throws -> FilterState? {
        try fetchFilters(db, id: id).first
    }

    /// The current states of the filters that exist (of the one filter `id`, when given), by
    /// id: point lookups of the current steps (CROSS JOIN keeps `filter` first), with the
    /// explicit options of `filter.options` or the categories of a bound filter.
    static func fetchFilters(_ db: Database, id: String? = nil) throws -> [FilterState] {
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: """
                SELECT c.filterId, c.title, c.source, f.options, c.selectedId, c.presentation, c.revision, c.updatedAt
                FROM filter f
                CROSS JOIN filter_step c ON c.filterId = f.id AND c.revision = f.revision
                WHERE f.deleted = 0 \(id == nil ? "" : "AND f.id = ?")
                ORDER BY f.id
                """),
            arguments: id.map { [$0] } ?? [])
        var mirror: [FilterOption]?
        return try rows.map { row in
            let options: [FilterOption]
            if let json: String = row[3] {
                options = try StoredFilter.decodeOptions(json)
            } else {
                if mirror == nil { mirror = try categoryOptions(db) }
                options = mirror ?? []
            }
            return try StoredFilter.state(
                filterID: row[0], title: row[1], source: row[2], options: options, selectedID: row[4], presentation: row[5],
                revision: row[6], updatedAtMilliseconds: row[7])
        }
    }

    /// The retained steps of a filter after `revision`, oldest first.
    static func fetchFilterSteps(_ db: Database, id: String, after revision: Int64) throws -> [FilterStep] {
        try Row.fetchAll(
            db,
            sql: "SELECT \(filterStepColumns) FROM filter_step WHERE filterId = ? AND revision > ? ORDER BY revision",
            arguments: [id, revision]
        ).map { row in
            try StoredFilter.step(
                filterID: row[0], title: row[1], source: row[2], edits: row[3], selectedID: row[4], presentation: row[5],
                revision: row[6], updatedAtMilliseconds: row[7], creates: row[8])
        }
    }

    /// The current state of a filter that exists, in a write transaction: the committed one
    /// when kept, else read.
    func currentFilter(_ db: Database, id: String) throws -> FilterState? {
        try committedFilters.state(of: id) ?? Self.fetchFilter(db, id: id)
    }

    /// Makes `state` the filter's current state and appends `step`, which led to it, to its
    /// history, then prunes the history. With `storingOptions`, `filter.options` takes the
    /// state's options (none for a bound filter); without, it keeps what it holds.
    func appendFilterStep(_ db: Database, _ state: FilterState, _ step: FilterStep, storingOptions: Bool) throws {
        committedFilters.forget(state.filterId)
        if storingOptions {
            let upsert = try db.cachedStatement(sql: """
                INSERT INTO filter (id, revision, deleted, options) VALUES (?, ?, 0, ?)
                ON CONFLICT (id) DO UPDATE SET revision = excluded.revision, deleted = 0, options = excluded.options
                """)
            let options = state.source == .categories ? nil : try StoredFilter.encodeOptions(state.options)
            try upsert.execute(arguments: [state.filterId, state.revision, options])
        } else {
            try db.cachedStatement(sql: "UPDATE filter SET revision = ? WHERE id = ?")
                .execute(arguments: [state.revision, state.filterId])
        }
        let insert = try db.cachedStatement(sql: """
            INSERT INTO filter_step (filterId, revision, title, source, edits, selectedId, presentation, updatedAt, creates)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        try insert.execute(arguments: [
            state.filterId, step.revision, step.title, step.source?.rawValue, StoredFilter.encodeEdits(step.edits),
            step.selectedId, step.presentation.rawValue, StoredFilter.milliseconds(step.updatedAt), step.creates,
        ])
        try Self.pruneFilterHistory(db, id: state.filterId, current: state.revision)
    }

    /// At every `StoredFilter.pruneBatch`-th revision (a revision is always the last plus one),
    /// keeps the last `StoredFilter.retainedChanges` steps, fewer when their option edits take
    /// more than `StoredFilter.retainedBytes` (the newest always). Other writes skip even the
    /// statements, which would cost every Select. The edits are summed only when steps of the
    /// last batch have some (otherwise their total did not grow since the last look), and
    /// walked only when they are over.
    static func pruneFilterHistory(_ db: Database, id: String, current: Int64) throws {
        guard current.isMultiple(of: Int64(StoredFilter.pruneBatch)) else { return }
        try db.cachedStatement(sql: "DELETE FROM filter_step WHERE filterId = ? AND revision < ?")
            .execute(arguments: [id, current - Int64(StoredFilter.retainedChanges) + 1])
        let editedLately = try Bool.fetchOne(
            db.cachedStatement(sql: """
                SELECT EXISTS (SELECT 1 FROM filter_step WHERE filterId = ? AND revision > ? AND edits IS NOT NULL)
                """),
            arguments: [id, current - Int64(StoredFilter.pruneBatch)]) ?? false
        guard editedLately else { return }
        let total = try Int.fetchOne(
            db.cachedStatement(sql: "SELECT coalesce(sum(length(CAST(edits AS BLOB))), 0) FROM filter_step WHERE filterId = ?"),
            arguments: [id]) ?? 0
        guard total > StoredFilter.retainedBytes else { return }
        let sizes = try Row.fetchCursor(
            db,
            sql: """
                SELECT revision, length(CAST(edits AS BLOB)) FROM filter_step
                WHERE filterId = ? AND edits IS NOT NULL ORDER BY revision DESC
                """,
            arguments: [id])
        var kept = 0
        while let row = try sizes.next() {
            kept += row[1] as Int
            let revision: Int64 = row[0]
            if kept > StoredFilter.retainedBytes, revision < current {
                try db.execute(sql: "DELETE FROM filter_step WHERE filterId = ? AND revision <= ?", arguments: [id, revision])
                return
            }
        }
    }

    // MARK: Categories mirrored

    /// The categories as options, in position order: the options of every bound filter.
    static func categoryOptions(_ db: Database) throws -> [FilterOption] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT id, name, icon FROM category ORDER BY position")).map { row in
            FilterOption(id: row[0], title: row[1], icon: row[2])
        }
    }
}
