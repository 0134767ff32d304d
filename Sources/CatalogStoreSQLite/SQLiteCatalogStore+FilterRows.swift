import CatalogAPI
import CatalogStore
import Foundation
import GRDB

/// Reading and writing filter states (tables `filter` and `filter_change`, see migration "v2"),
/// inside a transaction.
extension SQLiteCatalogStore {
    /// A filter's row: its latest revision (reserved when deleted) and whether it was deleted.
    struct FilterRow {
        var revision: Int64
        var deleted: Bool
    }

    /// The columns `filterState(_:options:)` reads, in its order (`options` is read apart).
    static let filterChangeColumns = "filterId, title, source, options, selectedId, presentation, revision, updatedAt"

    static func fetchFilterRow(_ db: Database, id: String) throws -> FilterRow? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT revision, deleted FROM filter WHERE id = ?"), arguments: [id])
            .map { FilterRow(revision: $0[0], deleted: $0[1]) }
    }

    /// The current state of a filter that exists (not deleted).
    static func fetchFilter(_ db: Database, id: String) throws -> FilterState? {
        try fetchFilters(db, id: id).first
    }

    /// The current states of the filters that exist (of the one filter `id`, when given), by id:
    /// point lookups of the current changes (CROSS JOIN keeps `filter` first).
    static func fetchFilters(_ db: Database, id: String? = nil) throws -> [FilterState] {
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: """
                SELECT c.filterId, c.title, c.source, o.options, c.selectedId, c.presentation, c.revision, c.updatedAt
                FROM filter f
                CROSS JOIN filter_change c ON c.filterId = f.id AND c.revision = f.revision
                CROSS JOIN filter_change o ON o.filterId = f.id AND o.revision = f.optionsRevision
                WHERE f.deleted = 0 \(id == nil ? "" : "AND f.id = ?")
                ORDER BY f.id
                """),
            arguments: id.map { [$0] } ?? [])
        return try rows.map { row in try filterState(row, options: StoredFilter.decodeOptions(row[3])) }
    }

    /// The last `limit` retained states of a filter, oldest first.
    static func fetchFilterHistory(_ db: Database, id: String, limit: Int) throws -> [FilterState] {
        guard limit > 0 else { return [] }
        let rows = try Row.fetchAll(
            db,
            sql: "SELECT \(filterChangeColumns) FROM filter_change WHERE filterId = ? ORDER BY revision DESC LIMIT ?",
            arguments: [id, limit]
        ).reversed()
        guard let first = rows.first else { return [] }
        // The oldest row read may lean on an older one for its options.
        var firstOptions: String? = first[3]
        if firstOptions == nil {
            firstOptions = try String.fetchOne(
                db,
                sql: """
                    SELECT options FROM filter_change WHERE filterId = ? AND revision < ? AND options IS NOT NULL
                    ORDER BY revision DESC LIMIT 1
                    """,
                arguments: [id, first[6] as Int64])
        }
        guard let firstOptions else { throw CatalogError.storage("the history of filter '\(id)' lacks its options") }
        var options = try StoredFilter.decodeOptions(firstOptions)
        return try rows.map { row in
            if let json: String = row[3] { options = try StoredFilter.decodeOptions(json) }
            return try filterState(row, options: options)
        }
    }

    /// The current state of a filter that exists, in a write transaction: the committed one
    /// when kept, else read.
    func currentFilter(_ db: Database, id: String) throws -> FilterState? {
        try committedFilters.state(of: id) ?? Self.fetchFilter(db, id: id)
    }

    /// Makes `state` the filter's current state and appends it to its history, then prunes the
    /// history. `optionsJSON` is `nil` when the options are those of the state it follows.
    func appendFilterChange(_ db: Database, _ state: FilterState, optionsJSON: String?) throws {
        committedFilters.forget(state.filterId)
        if optionsJSON == nil {
            try db.cachedStatement(sql: "UPDATE filter SET revision = ? WHERE id = ?")
                .execute(arguments: [state.revision, state.filterId])
        } else {
            let upsert = try db.cachedStatement(sql: """
                INSERT INTO filter (id, revision, optionsRevision, deleted) VALUES (?, ?, ?, 0)
                ON CONFLICT (id) DO UPDATE SET
                    revision = excluded.revision, optionsRevision = excluded.optionsRevision, deleted = 0
                """)
            try upsert.execute(arguments: [state.filterId, state.revision, state.revision])
        }
        let insert = try db.cachedStatement(sql: """
            INSERT INTO filter_change (filterId, revision, title, source, options, selectedId, presentation, updatedAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        try insert.execute(arguments: [
            state.filterId, state.revision, state.title, state.source?.rawValue, optionsJSON, state.selectedId,
            state.presentation.rawValue, StoredFilter.milliseconds(state.updatedAt),
        ])
        try Self.pruneFilterHistory(db, id: state.filterId, current: state.revision)
    }

    /// At every `StoredFilter.pruneBatch`-th revision (a revision is always the last plus one),
    /// keeps the last `StoredFilter.retainedChanges` changes; the oldest kept change takes the options
    /// it leant on. Other writes skip even the query for the oldest change, which would cost
    /// every Select a statement.
    static func pruneFilterHistory(_ db: Database, id: String, current: Int64) throws {
        guard current.isMultiple(of: Int64(StoredFilter.pruneBatch)),
            let oldest = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT MIN(revision) FROM filter_change WHERE filterId = ?"), arguments: [id]),
            current - oldest + 1 > Int64(StoredFilter.retainedChanges)
        else { return }
        let newOldest = current - Int64(StoredFilter.retainedChanges) + 1
        let complete = try Int64.fetchOne(
            db,
            sql: """
                SELECT revision FROM filter_change WHERE filterId = ? AND revision <= ? AND options IS NOT NULL
                ORDER BY revision DESC LIMIT 1
                """,
            arguments: [id, newOldest])
        if let complete, complete < newOldest {
            try db.execute(
                sql: """
                    UPDATE filter_change SET options = (SELECT options FROM filter_change WHERE filterId = ? AND revision = ?)
                    WHERE filterId = ? AND revision = ?
                    """,
                arguments: [id, complete, id, newOldest])
            try db.execute(
                sql: "UPDATE filter SET optionsRevision = ? WHERE id = ? AND optionsRevision = ?",
                arguments: [newOldest, id, complete])
        }
        try db.execute(
            sql: "DELETE FROM filter_change WHERE filterId = ? AND revision < ?", arguments: [id, newOldest])
    }

    /// A state from a row of `filterChangeColumns`, with its options.
    static func filterState(_ row: Row, options: [FilterOption]) throws -> FilterState {
        try StoredFilter.state(
            filterID: row[0], title: row[1], source: row[2], options: options, selectedID: row[4], presentation: row[5],
            revision: row[6], updatedAtMilliseconds: row[7])
    }
}
