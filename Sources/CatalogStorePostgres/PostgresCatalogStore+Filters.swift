import CatalogAPI
import CatalogStore
import PostgresNIO

extension PostgresCatalogStore {
    // MARK: Reads

    public func filters() async throws(CatalogError) -> [FilterState] {
        try await read { transaction in try await Self.fetchFilters(transaction) }
    }

    public func filterHistory(filterID: String, limit: Int) async throws(CatalogError) -> [FilterState] {
        try await read { transaction in try await Self.fetchFilterHistory(transaction, id: filterID, after: nil, limit: limit) }
    }

    // MARK: Writes

    public func defineFilter(_ definition: FilterDefinition) async throws(CatalogError) -> FilterState {
        try await write { transaction in
            let options: [FilterOption]
            let optionsJSON: String
            switch definition.content {
            case .options(let explicit):
                options = explicit
                optionsJSON = try StoredFilter.encodeOptions(explicit)
            case .source(.categories):
                // Bound from now on: no category write may slip between the mirror read here and
                // this commit (it would not see the binding yet).
                try await transaction.lockCatalog()
                optionsJSON = try await Self.categoryOptionsJSON(transaction)
                options = try StoredFilter.decodeOptions(optionsJSON)
            case .source(.unknown(let source)):
                throw FilterRules.unknownSource(source)
            }
            try await transaction.query(
                """
                INSERT INTO filter (id, revision, options_revision, deleted) VALUES (\(definition.filterID), 0, 0, true)
                ON CONFLICT (id) DO NOTHING
                """)
            guard let head = try await Self.lockFilterHead(transaction, id: definition.filterID) else {
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
            // Full options when the source changes too: a bound filter stores them as the SQL mirror writes them.
            let sameOptions = current?.options == committed.options && current?.source == committed.source
            try await self.appendFilterChange(transaction, committed, optionsJSON: sameOptions ? nil : optionsJSON)
            return committed
        }
    }

    public func updateFilter(_ filterID: String, _ edit: FilterEdit) async throws(CatalogError) -> FilterState {
        try await write { transaction in
            guard let head = try await Self.lockFilterHead(transaction, id: filterID),
                let current = try await self.currentFilter(transaction, id: filterID, head: head)
            else { throw CatalogError.unknownFilter(filterID) }
            let next = try FilterRules.edited(current, edit)
            let committed = FilterRules.committed(next, after: current, now: StoredFilter.timestamp())
            guard committed.revision != current.revision else { return current }
            try await self.appendFilterChange(transaction, committed, optionsJSON: nil)
            return committed
        }
    }

    /// Runs the update in a task: PostgreSQL is always a round trip away.
    public func updateFilter(
        _ filterID: String, _ edit: FilterEdit,
        completion: @escaping @Sendable (Result<FilterState, CatalogError>) -> Void
    ) {
        Task {
            do throws(CatalogError) {
                completion(.success(try await updateFilter(filterID, edit)))
            } catch {
                completion(.failure(error))
            }
        }
    }

    public func deleteFilter(_ filterID: String) async throws(CatalogError) {
        try await write { transaction in
            guard let head = try await Self.lockFilterHead(transaction, id: filterID), !head.deleted else {
                throw CatalogError.unknownFilter(filterID)
            }
            if filterID == FilterRules.builtinFilterID { throw CatalogError.builtinFilter(filterID) }
            // The row stays, so the revision stays reserved; the history goes.
            try await transaction.query(
                """
                WITH head AS (UPDATE filter SET deleted = true WHERE id = \(filterID)),
                    history AS (DELETE FROM filter_change WHERE filter_id = \(filterID))
                SELECT pg_notify(\(ChangeNotice.channel), \(ChangeNotice.filter(filterID).payload))
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
            case .updated(let state):
                if feed.offer([state], of: state.filterId, acceptingGap: false) { continue }
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

    /// Tells the observer what follows, in the database, what it was told about `filterID`.
    public func catchUp(filterID: String) async throws(CatalogError) {
        try await read { transaction in
            guard let head = try await Self.fetchFilterHead(transaction, id: filterID) else { return }
            if head.deleted {
                self.feed.offerDeletion(of: filterID, revision: head.revision)
                return
            }
            let told = self.feed.told(filterID)
            if let told, !told.deleted, told.revision >= head.revision { return }
            let states = try await Self.fetchFilterHistory(
                transaction, id: filterID, after: told?.revision,
                limit: self.feed.hasObserver ? self.settings.retainedFilterChanges : 1)
            self.feed.offer(states, of: filterID, acceptingGap: true)
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
