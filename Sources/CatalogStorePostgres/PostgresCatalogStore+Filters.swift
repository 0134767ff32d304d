import CatalogAPI
import CatalogStore
import PostgresNIO

extension PostgresCatalogStore {
    // MARK: Reads

    public func filters() async throws(CatalogError) -> [FilterState] {
        try await read { transaction in try await Self.fetchFilters(transaction) }
    }

    public func filterSteps(filterID: String, after revision: Int64) async throws(CatalogError) -> [FilterStep] {
        try await read { transaction in try await Self.fetchFilterSteps(transaction, id: filterID, after: revision) }
    }

    // MARK: Writes

    public func defineFilter(_ definition: FilterDefinition) async throws(CatalogError) -> FilterState {
        try await write { transaction in
            let options: [FilterOption]
            switch definition.content {
            case .options(let explicit):
                options = explicit
            case .source(.categories):
                // Bound from now on: no category write may slip between the mirror read here and
                // this commit (it would not see the binding yet).
                try await transaction.lockCatalog()
                options = try await Self.categoryOptions(transaction)
            case .source(.unknown(let source)):
                throw FilterRules.unknownSource(source)
            }
            try await transaction.query(
                """
                INSERT INTO filter (id, revision, deleted) VALUES (\(definition.filterID), 0, true)
                ON CONFLICT (id) DO NOTHING
                """)
            guard let head = try await Self.fetchFilterHead(transaction, id: definition.filterID, locking: true) else {
                throw CatalogError.storage("filter '\(definition.filterID)' has no head row")
            }
            let current = try await self.currentFilter(transaction, id: definition.filterID, head: head)
            let now = StoredFilter.timestamp()
            var next = try FilterRules.defined(definition, options: options, over: current, now: now)
            if current == nil {
                // New, or defined again after a Delete: continue after the reserved revision.
                next.revision = head.revision
            }
            let committed = FilterRules.committed(next, after: current, now: now)
            guard committed.revision != current?.revision else { return committed }
            try await self.appendFilterStep(transaction, committed, FilterStep(from: current, to: committed), storingOptions: true)
            return committed
        }
    }

    /// One statement in the usual case: the edit applies to the state told last, and the head
    /// row takes the next revision only if it still holds that one (compare and set). When
    /// another replica wrote in between, the store reads what it missed and tries again.
    public func applyFilterEdit(_ filterID: String, _ edit: FilterEdit) async throws(CatalogError) -> FilterUpdate {
        while true {
            let current: FilterState
            if let told = feed.told(filterID)?.state {
                current = told
            } else {
                try await catchUp(filterID: filterID)
                guard let told = feed.told(filterID)?.state else { throw .unknownFilter(filterID) }
                current = told
            }
            let next = try FilterRules.edited(current, edit)
            let committed = FilterRules.committed(next, after: current, now: StoredFilter.timestamp())
            if committed.revision == current.revision {
                // Nothing to change, if `current` is still the head.
                if try await headRevision(filterID) == current.revision { return FilterUpdate(state: current, changed: false) }
            } else if try await appendIfHead(committed, after: current.revision) {
                await deliver([.updated(committed, FilterStep(to: committed, edits: []))])
                if committed.revision.isMultiple(of: Int64(StoredFilter.pruneBatch)) { await pruneHistory(of: filterID, at: committed.revision) }
                return FilterUpdate(state: committed, changed: true)
            }
            try await catchUp(filterID: filterID)
        }
    }

    /// The head revision of a filter that exists, as committed now; `nil` when it does not.
    private func headRevision(_ filterID: String) async throws(CatalogError) -> Int64? {
        try await read { transaction in
            try await Self.fetchFilterHead(transaction, id: filterID).flatMap { $0.deleted ? nil : $0.revision }
        }
    }

    /// Appends `state` (same options as before) and announces it, in one statement, if the
    /// filter's head is still at `revision`; whether it did.
    private func appendIfHead(_ state: FilterState, after revision: Int64) async throws(CatalogError) -> Bool {
        try await read { transaction in
            try await !transaction.query(
                """
                WITH head AS (
                    UPDATE filter SET revision = \(state.revision)
                    WHERE id = \(state.filterId) AND revision = \(revision) AND NOT deleted
                    RETURNING id
                ), change AS (
                    INSERT INTO filter_step (filter_id, revision, title, source, edits, selected_id, presentation, updated_at, creates)
                    SELECT id, \(state.revision), \(state.title), \(state.source?.rawValue), NULL, \(state.selectedId),
                        \(state.presentation.rawValue), \(StoredFilter.milliseconds(state.updatedAt)), false
                    FROM head
                )
                SELECT pg_notify(\(ChangeNotice.channel), \(ChangeNotice.filter(state.filterId).payload(from: self.replicaID))) FROM head
                """
            ).isEmpty
        }
    }

    /// Prunes the history of `filterID` after a write that did not (see `pruneFilterHistory`);
    /// a failure only leaves older changes for the next time.
    private func pruneHistory(of filterID: String, at revision: Int64) async {
        do {
            try await write { transaction in
                _ = try await Self.fetchFilterHead(transaction, id: filterID, locking: true)
                try await Self.pruneFilterHistory(transaction, id: filterID, current: revision)
            }
        } catch {
            logger.warning("cannot prune a filter's history", metadata: ["filterId": "\(filterID)", "cause": "\(error)"])
        }
    }

    public func deleteFilter(_ filterID: String) async throws(CatalogError) {
        try await write { transaction in
            guard let head = try await Self.fetchFilterHead(transaction, id: filterID, locking: true), !head.deleted else {
                throw CatalogError.unknownFilter(filterID)
            }
            if filterID == FilterRules.builtinFilterID { throw CatalogError.builtinFilter(filterID) }
            // The row stays, so the revision stays reserved; the history goes.
            try await transaction.query(
                """
                WITH head AS (UPDATE filter SET deleted = true, options = NULL WHERE id = \(filterID)),
                    history AS (DELETE FROM filter_step WHERE filter_id = \(filterID))
                SELECT pg_notify(\(ChangeNotice.channel), \(ChangeNotice.filter(filterID).payload(from: self.replicaID)))
                """)
            transaction.filterChanged(.deleted(filterID: filterID, revision: head.revision))
        }
    }

    // MARK: Notification

    /// The observer is told about this replica's changes once they commit, before the write
    /// returns, and about every other replica's as the listener reads them: each filter's
    /// revisions in increasing order, each once.
    public func observeFilterChanges(_ observer: @escaping @Sendable (FilterChange) -> Void) {
        feed.setObserver(observer)
    }

    /// Tells the observer about a committed transaction's filter changes. A state that does not
    /// follow the last one told (another replica's change came between and was not read yet)
    /// is told after reading what lies between.
    func deliver(_ changes: [CommittedFilterChange]) async {
        for change in changes {
            switch change {
            case .updated(let state, let step):
                if feed.offer([(state, step)], of: state.filterId, acceptingGap: false) { continue }
                do {
                    try await catchUp(filterID: state.filterId)
                } catch {
                    // Committed all the same; the head check reads it again later.
                    logger.warning(
                        "cannot read a filter's changes of other replicas", metadata: ["filterId": "\(state.filterId)", "cause": "\(error)"])
                }
            case .deleted(let filterID, let revision):
                feed.offerDeletion(of: filterID, revision: revision)
            }
        }
    }

    /// Other replicas write the same database.
    public var hasOtherWriters: Bool { true }

    /// Tells the observer what follows, in the database, what it was told about `filterID`:
    /// the steps after the state told last, applied to it; when none was told or the steps do
    /// not follow it, every retained state after it, rebuilt from the current one (only the
    /// current one while nobody observes). One query when there is something new and the steps
    /// follow, the usual case after a notification; the head row is read only when there is
    /// nothing new, to tell a deletion.
    public func catchUp(filterID: String) async throws(CatalogError) {
        try await read { transaction in
            let told = self.feed.told(filterID)
            let steps = try await Self.fetchFilterSteps(transaction, id: filterID, after: told?.revision ?? 0)
            if !steps.isEmpty {
                if var state = told?.state, steps[0].revision == state.revision + 1 {
                    let changes = steps.map { step in
                        state = step.applied(to: state)
                        return (state, step)
                    }
                    self.feed.offer(changes, of: filterID, acceptingGap: false)
                } else if let current = try await Self.fetchFilter(transaction, id: filterID) {
                    // Each statement reads its own snapshot: a write committed after the steps
                    // were read and before the head was leaves the steps behind, so read them again.
                    let caughtUp =
                        (steps.last?.revision ?? 0) >= current.revision
                        ? steps : try await Self.fetchFilterSteps(transaction, id: filterID, after: told?.revision ?? 0)
                    let retained = caughtUp.filter { $0.revision <= current.revision }
                    if self.feed.hasObserver, retained.last?.revision == current.revision {
                        let states = FilterStep.states(current: current, steps: retained)
                        self.feed.offer(Array(zip(states, retained)), of: filterID, acceptingGap: true)
                    } else {
                        self.feed.offer([(current, FilterStep(to: current, edits: []))], of: filterID, acceptingGap: true)
                    }
                }
            } else if let head = try await Self.fetchFilterHead(transaction, id: filterID), head.deleted {
                self.feed.offerDeletion(of: filterID, revision: head.revision)
            }
        }
    }

    /// The filters whose head differs from what the observer was told.
    func filtersBehind() async throws(CatalogError) -> [String] {
        let heads = try await read { transaction in
            try await transaction.query("SELECT id, revision, deleted FROM filter").map { row in
                try row.decode((String, Int64, Bool).self)
            }
        }
        let told = feed.allTold()
        return heads.compactMap { id, revision, deleted in
            guard let known = told[id] else { return id }
            return known.deleted != deleted || known.revision < revision ? id : nil
        }
    }
}
