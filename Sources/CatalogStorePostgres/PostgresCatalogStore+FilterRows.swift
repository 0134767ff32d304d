import CatalogAPI
import CatalogStore
import Foundation
import PostgresNIO

/// Reading and writing filter states (tables `filter` and `filter_change`, see
/// `PostgresSchema`), inside a transaction.
extension PostgresCatalogStore {
    /// A filter's head row: its latest revision (reserved when deleted), the change holding its
    /// current options, and whether it was deleted.
    struct FilterHead {
        var revision: Int64
        var optionsRevision: Int64
        var deleted: Bool
    }

    /// The head row of `id`, as committed now; with `locking`, locked until the transaction
    /// ends: the one place a filter's next revision comes from, so two writers of one filter
    /// take turns.
    static func fetchFilterHead(_ transaction: Transaction, id: String, locking: Bool = false) async throws -> FilterHead? {
        try await transaction.query(
            "SELECT revision, options_revision, deleted FROM filter WHERE id = \(id)\(unescaped: locking ? " FOR UPDATE" : "")"
        ).first.map { row in
            let (revision, optionsRevision, deleted) = try row.decode((Int64, Int64, Bool).self)
            return FilterHead(revision: revision, optionsRevision: optionsRevision, deleted: deleted)
        }
    }

    /// The state at `head` of a filter that exists: the one the observer was told last when it
    /// is that revision (a state never changes once committed), else read.
    func currentFilter(_ transaction: Transaction, id: String, head: FilterHead) async throws -> FilterState? {
        guard !head.deleted else { return nil }
        if let told = feed.told(id)?.state, told.revision == head.revision { return told }
        let rows = try await transaction.query(
            """
            SELECT c.filter_id, c.title, c.source, o.options, c.selected_id, c.presentation, c.revision, c.updated_at
            FROM filter_change c JOIN filter_change o ON o.filter_id = c.filter_id AND o.revision = \(head.optionsRevision)
            WHERE c.filter_id = \(id) AND c.revision = \(head.revision)
            """)
        guard let row = rows.first else { throw CatalogError.storage("filter '\(id)' lacks its current change") }
        return try Self.filterState(row, options: nil)
    }

    /// The current states of the filters that exist, by id.
    static func fetchFilters(_ transaction: Transaction) async throws -> [FilterState] {
        try await transaction.query(
            """
            SELECT c.filter_id, c.title, c.source, o.options, c.selected_id, c.presentation, c.revision, c.updated_at
            FROM filter f
            JOIN filter_change c ON c.filter_id = f.id AND c.revision = f.revision
            JOIN filter_change o ON o.filter_id = f.id AND o.revision = f.options_revision
            WHERE NOT f.deleted
            ORDER BY f.id
            """
        ).map { row in try filterState(row, options: nil) }
    }

    /// The last `limit` retained states of a filter after revision `after` (any, when `nil`),
    /// oldest first. `previous`, the state at `after` when known, spares reading the options
    /// the first new state leans on.
    static func fetchFilterHistory(
        _ transaction: Transaction, id: String, after: Int64?, limit: Int, previous: FilterState? = nil
    ) async throws -> [FilterState] {
        guard limit > 0 else { return [] }
        let rows = try await transaction.query(
            """
            SELECT \(unescaped: filterChangeColumns) FROM filter_change
            WHERE filter_id = \(id) AND revision > \(after ?? -1)
            ORDER BY revision DESC LIMIT \(limit)
            """
        ).reversed()
        guard let first = rows.first else { return [] }
        // The oldest row read may lean on an older one for its options.
        var current: [FilterOption]
        let firstRevision = try PostgresRandomAccessRow(first)[6].decode(Int64.self)
        if let json = try optionsColumn(first) {
            current = try StoredFilter.decodeOptions(json)
        } else if let previous, previous.revision == firstRevision - 1 {
            current = previous.options
        } else {
            let json = try await transaction.query(
                """
                SELECT options FROM filter_change WHERE filter_id = \(id) AND revision < \(firstRevision) AND options IS NOT NULL
                ORDER BY revision DESC LIMIT 1
                """
            ).first?.decode(String.self)
            guard let json else { throw CatalogError.storage("the history of filter '\(id)' lacks its options") }
            current = try StoredFilter.decodeOptions(json)
        }
        return try rows.map { row in
            if let json = try optionsColumn(row) { current = try StoredFilter.decodeOptions(json) }
            return try filterState(row, options: current)
        }
    }

    /// The `options` column of a row of `filterChangeColumns`.
    private static func optionsColumn(_ row: PostgresRow) throws -> String? {
        try PostgresRandomAccessRow(row)[3].decode(String?.self)
    }

    /// The columns `filterState(_:options:)` reads, in its order.
    static let filterChangeColumns = "filter_id, title, source, options, selected_id, presentation, revision, updated_at"

    /// Makes `state` the filter's current state and appends it to its history, with the notice
    /// to the other replicas, in one statement; then prunes the history. `optionsJSON` is `nil`
    /// when the options are those of the state it follows.
    func appendFilterChange(_ transaction: Transaction, _ state: FilterState, optionsJSON: String?) async throws {
        try await transaction.query(
            """
            WITH head AS (
                UPDATE filter SET revision = \(state.revision), deleted = false,
                    options_revision = CASE WHEN \(optionsJSON != nil) THEN \(state.revision) ELSE options_revision END
                WHERE id = \(state.filterId)
            ), change AS (
                INSERT INTO filter_change (filter_id, revision, title, source, options, selected_id, presentation, updated_at)
                VALUES (\(state.filterId), \(state.revision), \(state.title), \(state.source?.rawValue), \(optionsJSON),
                    \(state.selectedId), \(state.presentation.rawValue), \(StoredFilter.milliseconds(state.updatedAt)))
            )
            SELECT pg_notify(\(ChangeNotice.channel), \(ChangeNotice.filter(state.filterId).payload(from: self.replicaID)))
            """)
        try await Self.pruneFilterHistory(transaction, id: state.filterId, current: state.revision)
        transaction.filterChanged(.updated(state))
    }

    /// At every `StoredFilter.pruneBatch`-th revision (a revision is always the last plus one),
    /// keeps the last `StoredFilter.retainedChanges` changes; the oldest kept change takes the options
    /// it leant on.
    static func pruneFilterHistory(_ transaction: Transaction, id: String, current: Int64) async throws {
        guard current.isMultiple(of: Int64(StoredFilter.pruneBatch)),
            let oldest = try await transaction.query("SELECT min(revision) FROM filter_change WHERE filter_id = \(id)")
                .first?.decode(Int64?.self),
            current - oldest + 1 > Int64(StoredFilter.retainedChanges)
        else { return }
        let newOldest = current - Int64(StoredFilter.retainedChanges) + 1
        let complete = try await transaction.query(
            """
            SELECT revision FROM filter_change WHERE filter_id = \(id) AND revision <= \(newOldest) AND options IS NOT NULL
            ORDER BY revision DESC LIMIT 1
            """
        ).first?.decode(Int64.self)
        if let complete, complete < newOldest {
            try await transaction.query(
                """
                UPDATE filter_change SET options = (SELECT options FROM filter_change WHERE filter_id = \(id) AND revision = \(complete))
                WHERE filter_id = \(id) AND revision = \(newOldest)
                """)
            try await transaction.query(
                "UPDATE filter SET options_revision = \(newOldest) WHERE id = \(id) AND options_revision = \(complete)")
        }
        try await transaction.query("DELETE FROM filter_change WHERE filter_id = \(id) AND revision < \(newOldest)")
    }

    /// A state from a row of `filterChangeColumns`, with `options`, or the row's own when `nil`.
    static func filterState(_ row: PostgresRow, options: [FilterOption]?) throws -> FilterState {
        let (id, title, source, rowOptions, selectedID, presentation, revision, updatedAt) = try row.decode(
            (String, String, String?, String?, Int64?, String, Int64, Int64).self)
        guard let options = try options ?? rowOptions.map(StoredFilter.decodeOptions) else {
            throw CatalogError.storage("filter '\(id)' lacks its options")
        }
        return try StoredFilter.state(
            filterID: id, title: title, source: source, options: options, selectedID: selectedID, presentation: presentation,
            revision: revision, updatedAtMilliseconds: updatedAt)
    }

    // MARK: Categories mirrored

    /// The categories as a JSON array of options, in position order: what a bound filter
    /// stores (the same SQL as the schema's first migration), so comparing it needs no decoding.
    static let categoryOptionsSQL = """
        SELECT coalesce(json_agg(json_build_object('id', id, 'title', name, 'icon', icon) ORDER BY position)::text, '[]') AS options
        FROM category
        """

    static func categoryOptionsJSON(_ transaction: Transaction) async throws -> String {
        try await transaction.query(PostgresQuery(unsafeSQL: categoryOptionsSQL)).first?.decode(String.self) ?? "[]"
    }

    /// Gives every bound filter whose options differ from the categories the new options (a
    /// selection that vanished is cleared in the same revision). Run by every category write
    /// that may change names, icons, positions or the set of categories, inside its
    /// transaction (which holds the catalog lock); one query when nothing differs.
    func syncCategoryFilters(_ transaction: Transaction) async throws {
        let stale = try await transaction.query(
            PostgresQuery(
                unsafeSQL: """
                    SELECT f.id, mirror.options
                    FROM filter f
                    JOIN filter_change c ON c.filter_id = f.id AND c.revision = f.revision
                    JOIN filter_change o ON o.filter_id = f.id AND o.revision = f.options_revision
                    CROSS JOIN (\(Self.categoryOptionsSQL)) AS mirror
                    WHERE NOT f.deleted AND c.source = 'categories' AND o.options IS DISTINCT FROM mirror.options
                    ORDER BY f.id
                    """)
        ).map { row in try row.decode((String, String).self) }
        guard let optionsJSON = stale.first?.1 else { return }
        let options = try StoredFilter.decodeOptions(optionsJSON)
        let now = StoredFilter.timestamp()
        for (filterID, _) in stale {
            guard let head = try await Self.fetchFilterHead(transaction, id: filterID, locking: true),
                let current = try await currentFilter(transaction, id: filterID, head: head)
            else { continue }
            let next = FilterRules.replacingOptions(of: current, with: options)
            let committed = FilterRules.committed(next, after: current, now: now)
            guard committed.revision != current.revision else { continue }
            try await appendFilterChange(transaction, committed, optionsJSON: optionsJSON)
        }
    }
}
