import CatalogAPI
import CatalogStore
import Foundation
import PostgresNIO

/// Reading and writing filter states and steps (tables `filter` and `filter_step`, see
/// `PostgresSchema`), inside a transaction.
extension PostgresCatalogStore {
    /// A filter's head row: its latest revision (reserved when deleted), and whether it was
    /// deleted.
    struct FilterHead {
        var revision: Int64
        var deleted: Bool
    }

    /// The head row of `id`, as committed now; with `locking`, locked until the transaction
    /// ends: the one place a filter's next revision comes from, so two writers of one filter
    /// take turns.
    static func fetchFilterHead(_ transaction: Transaction, id: String, locking: Bool = false) async throws -> FilterHead? {
        try await transaction.query(
            "SELECT revision, deleted FROM filter WHERE id = \(id)\(unescaped: locking ? " FOR UPDATE" : "")"
        ).first.map { row in
            let (revision, deleted) = try row.decode((Int64, Bool).self)
            return FilterHead(revision: revision, deleted: deleted)
        }
    }

    /// The columns `filterState(_:mirror:)` and `filterStep(_:)` read, in their order (the
    /// fourth is `filter.options` for a state, `filter_step.edits` for a step).
    private static let currentStateSQL = """
        SELECT c.filter_id, c.title, c.source, f.options, c.selected_id, c.presentation, c.revision, c.updated_at
        FROM filter f JOIN filter_step c ON c.filter_id = f.id AND c.revision = f.revision
        """

    /// The state at `head` of a filter that exists: the one the observer was told last when it
    /// is that revision (a state never changes once committed), else read.
    func currentFilter(_ transaction: Transaction, id: String, head: FilterHead) async throws -> FilterState? {
        guard !head.deleted else { return nil }
        if let told = feed.told(id)?.state, told.revision == head.revision { return told }
        return try await Self.fetchFilter(transaction, id: id)
    }

    /// The current state of a filter that exists, as committed now.
    static func fetchFilter(_ transaction: Transaction, id: String) async throws -> FilterState? {
        let rows = try await transaction.query("\(unescaped: currentStateSQL) WHERE f.id = \(id) AND NOT f.deleted")
        return try await states(rows, transaction).first
    }

    /// The current states of the filters that exist, by id.
    static func fetchFilters(_ transaction: Transaction) async throws -> [FilterState] {
        let rows = try await transaction.query("\(unescaped: currentStateSQL) WHERE NOT f.deleted ORDER BY f.id")
        return try await states(rows, transaction)
    }

    /// States from rows of `currentStateSQL`: a row without options is a bound filter's, whose
    /// options are the categories.
    private static func states(_ rows: [PostgresRow], _ transaction: Transaction) async throws -> [FilterState] {
        var mirror: [FilterOption]?
        var states: [FilterState] = []
        for row in rows {
            let (id, title, source, json, selectedID, presentation, revision, updatedAt) = try row.decode(
                (String, String, String?, String?, Int64?, String, Int64, Int64).self)
            let options: [FilterOption]
            if let json {
                options = try StoredFilter.decodeOptions(json)
            } else {
                if mirror == nil { mirror = try await categoryOptions(transaction) }
                options = mirror ?? []
            }
            states.append(
                try StoredFilter.state(
                    filterID: id, title: title, source: source, options: options, selectedID: selectedID,
                    presentation: presentation, revision: revision, updatedAtMilliseconds: updatedAt))
        }
        return states
    }

    /// The retained steps of a filter after `revision`, oldest first.
    static func fetchFilterSteps(_ transaction: Transaction, id: String, after revision: Int64) async throws -> [FilterStep] {
        try await transaction.query(
            """
            SELECT filter_id, title, source, edits, selected_id, presentation, revision, updated_at, creates FROM filter_step
            WHERE filter_id = \(id) AND revision > \(revision) ORDER BY revision
            """
        ).map { row in
            let (id, title, source, edits, selectedID, presentation, revision, updatedAt, creates) = try row.decode(
                (String, String, String?, String?, Int64?, String, Int64, Int64, Bool).self)
            return try StoredFilter.step(
                filterID: id, title: title, source: source, edits: edits, selectedID: selectedID, presentation: presentation,
                revision: revision, updatedAtMilliseconds: updatedAt, creates: creates)
        }
    }

    /// Makes `state` the filter's current state and appends `step`, which led to it, to its
    /// history, with the notice to the other replicas, in one statement; then prunes the
    /// history. With `storingOptions`, `filter.options` takes the state's options (none for a
    /// bound filter); without, it keeps what it holds.
    func appendFilterStep(_ transaction: Transaction, _ state: FilterState, _ step: FilterStep, storingOptions: Bool) async throws {
        let options = storingOptions && state.source != .categories ? try StoredFilter.encodeOptions(state.options) : nil
        try await transaction.query(
            """
            WITH head AS (
                UPDATE filter SET revision = \(state.revision), deleted = false,
                    options = CASE WHEN \(storingOptions) THEN \(options) ELSE options END
                WHERE id = \(state.filterId)
            ), step AS (
                INSERT INTO filter_step (filter_id, revision, title, source, edits, selected_id, presentation, updated_at, creates)
                VALUES (\(state.filterId), \(step.revision), \(step.title), \(step.source?.rawValue),
                    \(try StoredFilter.encodeEdits(step.edits)), \(step.selectedId), \(step.presentation.rawValue),
                    \(StoredFilter.milliseconds(step.updatedAt)), \(step.creates))
            )
            SELECT pg_notify(\(ChangeNotice.channel), \(ChangeNotice.filter(state.filterId).payload(from: self.replicaID)))
            """)
        try await Self.pruneFilterHistory(transaction, id: state.filterId, current: state.revision)
        transaction.filterChanged(.updated(state, step))
    }

    /// At every `StoredFilter.pruneBatch`-th revision (a revision is always the last plus one),
    /// keeps the last `StoredFilter.retainedChanges` steps, fewer when their option edits take
    /// more than `StoredFilter.retainedBytes` (the newest always). The edits are summed only
    /// when steps of the last batch have some (otherwise their total did not grow since the
    /// last look), and the steps walked newest first only when they are over.
    static func pruneFilterHistory(_ transaction: Transaction, id: String, current: Int64) async throws {
        guard current.isMultiple(of: Int64(StoredFilter.pruneBatch)) else { return }
        let oldestKept = current - Int64(StoredFilter.retainedChanges) + 1
        let total = try await transaction.query(
            """
            WITH counted AS (DELETE FROM filter_step WHERE filter_id = \(id) AND revision < \(oldestKept))
            SELECT CASE WHEN EXISTS (
                    SELECT 1 FROM filter_step WHERE filter_id = \(id) AND revision > \(current - Int64(StoredFilter.pruneBatch))
                        AND edits IS NOT NULL)
                THEN (SELECT coalesce(sum(octet_length(edits)), 0) FROM filter_step
                      WHERE filter_id = \(id) AND revision >= \(oldestKept))
                ELSE 0 END::bigint
            """
        ).first?.decode(Int64.self) ?? 0
        guard total > StoredFilter.retainedBytes else { return }
        try await transaction.query(
            """
            DELETE FROM filter_step WHERE filter_id = \(id) AND revision <= (
                SELECT revision FROM (
                    SELECT revision, sum(coalesce(octet_length(edits), 0)) OVER (ORDER BY revision DESC) AS kept
                    FROM filter_step WHERE filter_id = \(id)) AS sizes
                WHERE kept > \(StoredFilter.retainedBytes) AND revision < \(current) ORDER BY revision DESC LIMIT 1)
            """)
    }

    // MARK: Categories mirrored

    /// The categories as options, in position order: the options of every bound filter.
    static func categoryOptions(_ transaction: Transaction) async throws -> [FilterOption] {
        try await transaction.query("SELECT id, name, icon FROM category ORDER BY position").map { row in
            let (id, name, icon) = try row.decode((Int64, String, String?).self)
            return FilterOption(id: id, title: name, icon: icon)
        }
    }

    /// The states of the filters bound to the categories, their head rows locked, before a
    /// category write changes anything: what `syncCategoryFilters` applies the write to. Read
    /// first in its transaction, which holds the catalog lock.
    func boundFilters(_ transaction: Transaction) async throws -> [FilterState] {
        let ids = try await transaction.query(
            """
            SELECT f.id FROM filter f JOIN filter_step c ON c.filter_id = f.id AND c.revision = f.revision
            WHERE NOT f.deleted AND c.source = 'categories' ORDER BY f.id
            """
        ).map { try $0.decode(String.self) }
        var states: [FilterState] = []
        for id in ids {
            guard let head = try await Self.fetchFilterHead(transaction, id: id, locking: true),
                let current = try await currentFilter(transaction, id: id, head: head)
            else { continue }
            states.append(current)
        }
        return states
    }

    /// Applies a category write to the bound filters, `bound` as `boundFilters` read them before
    /// it: `edits` when the write knows what it changed (`CategoryMirror`), else the edits
    /// between each filter's options and the categories now. A selection whose option went is
    /// cleared in the same revision.
    func syncCategoryFilters(_ transaction: Transaction, _ bound: [FilterState], edits known: [OptionEdit]? = nil) async throws {
        guard !bound.isEmpty, known?.isEmpty != true else { return }
        let mirror = known == nil ? try await Self.categoryOptions(transaction) : []
        let now = StoredFilter.timestamp()
        for var state in bound {
            let edits = known ?? OptionEdits.between(state.options, mirror)
            guard !edits.isEmpty else { continue }
            FilterRules.editOptions(of: &state, edits, now: now)
            try await appendFilterStep(transaction, state, FilterStep(to: state, edits: edits), storingOptions: false)
        }
    }
}
