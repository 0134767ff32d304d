import CatalogAPI
import CatalogStore
import Foundation
import GRDB

extension SQLiteCatalogStore: FilterStore {
    // MARK: Reads

    public func filters() async throws(CatalogError) -> [FilterState] {
        try await read { db in try Self.fetchFilters(db) }
    }

    public func filterSteps(filterID: String, after revision: Int64) async throws(CatalogError) -> [FilterStep] {
        try await read { db in try Self.fetchFilterSteps(db, id: filterID, after: revision) }
    }

    // MARK: Writes

    public func defineFilter(_ definition: FilterDefinition) async throws(CatalogError) -> FilterState {
        try await write { db in
            let current = try self.currentFilter(db, id: definition.filterID)
            let options: [FilterOption]
            switch definition.content {
            case .options(let explicit): options = explicit
            case .source(.categories): options = try Self.categoryOptions(db)
            case .source(.unknown(let source)): throw FilterRules.unknownSource(source)
            }
            let now = StoredFilter.timestamp()
            var next = try FilterRules.defined(definition, options: options, over: current, now: now)
            if current == nil, let reserved = try Self.fetchFilterRow(db, id: definition.filterID) {
                // Defined again after a Delete: continue after the reserved revision.
                next.revision = reserved.revision
            }
            let committed = FilterRules.committed(next, after: current, now: now)
            guard committed.revision != current?.revision else { return committed }
            let step = FilterStep(from: current, to: committed)
            try self.appendFilterStep(db, committed, step, storingOptions: true)
            self.notifyAfterCommit(db, [.updated(committed, step)])
            return committed
        }
    }

    /// A filter update is a few rows: it runs on the caller, without suspending, when the
    /// writer is idle (see `writeNowOrLater`).
    public func applyFilterEdit(_ filterID: String, _ edit: FilterEdit) async throws(CatalogError) -> FilterUpdate {
        try await writeNowOrLater { db in try self.applyFilterEdit(db, filterID, edit) }
    }

    private func applyFilterEdit(_ db: Database, _ filterID: String, _ edit: FilterEdit) throws -> FilterUpdate {
        guard let current = try currentFilter(db, id: filterID) else { throw CatalogError.unknownFilter(filterID) }
        let next = try FilterRules.edited(current, edit)
        let committed = FilterRules.committed(next, after: current, now: StoredFilter.timestamp())
        guard committed.revision != current.revision else { return FilterUpdate(state: current, changed: false) }
        let step = FilterStep(to: committed, edits: [])
        try appendFilterStep(db, committed, step, storingOptions: false)
        notifyAfterCommit(db, [.updated(committed, step)])
        return FilterUpdate(state: committed, changed: true)
    }

    public func deleteFilter(_ filterID: String) async throws(CatalogError) {
        try await write { db in
            guard let row = try Self.fetchFilterRow(db, id: filterID), !row.deleted else {
                throw CatalogError.unknownFilter(filterID)
            }
            if filterID == FilterRules.builtinFilterID { throw CatalogError.builtinFilter(filterID) }
            // The row stays, so the revision stays reserved; the history goes.
            self.committedFilters.forget(filterID)
            try db.execute(sql: "UPDATE filter SET deleted = 1, options = NULL WHERE id = ?", arguments: [filterID])
            try db.execute(sql: "DELETE FROM filter_step WHERE filterId = ?", arguments: [filterID])
            self.notifyAfterCommit(db, [.deleted(filterID: filterID)])
        }
    }

    // MARK: Notification

    public func observeFilterChanges(_ observer: @escaping @Sendable (FilterChange) -> Void) {
        filterObserver.withLock { $0 = FilterObserver(notify: observer) }
    }

    /// Keeps the committed states, then tells the observer about `changes`, in order, once the
    /// current transaction commits (on the writer queue, so in commit order, before the write
    /// returns); never on rollback.
    func notifyAfterCommit(_ db: Database, _ changes: [FilterChange]) {
        guard !changes.isEmpty else { return }
        db.afterNextTransaction { _ in
            self.committedFilters.committed(changes)
            guard let observer = self.filterObserver.withLock({ $0 }) else { return }
            for change in changes { observer.notify(change) }
        }
    }
}

/// The observer of filter changes, in a struct: a closure kept directly in a `Mutex` gains
/// two reabstraction thunks on every `withLock`, so each notification would get slower.
struct FilterObserver: Sendable {
    let notify: @Sendable (FilterChange) -> Void
}
