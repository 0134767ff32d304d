import CatalogAPI
import CatalogStore
import Foundation
import GRDB

extension SQLiteCatalogStore {
    public func listItems(_ query: ItemQuery) async throws(CatalogError) -> ListItemsResponse {
        let plan = try Self.itemListPlan(query)
        let pageSize = query.pageSize
        let sort = query.sort
        let descending = query.descending
        return try await read { db in
            let revision = try CatalogRevisionBump.current(db)
            let total = try Int.fetchOne(db, sql: plan.count.sql, arguments: plan.count.arguments) ?? 0
            var listed: [ListedItem] = []
            for segment in plan.segments where listed.count <= pageSize {
                listed += try db.fetchAll(
                    sql: segment.sql, arguments: segment.arguments + [pageSize + 1 - listed.count]
                ) { ListedItem($0, sort: sort) }
            }
            let page = listed.prefix(pageSize)
            var next: String?
            if listed.count > pageSize, let last = page.last {
                next = PageToken(
                    sort: sort.rawValue, descending: descending, filter: plan.filter, text: last.keyText,
                    number: last.keyNumber, id: last.item.id
                ).encoded()
            }
            return ListItemsResponse(items: page.map(\.item), nextPageToken: next, totalCount: total, revision: revision)
        }
    }

    /// An item of a listing with its sort key, which a page token ending there holds: read from a
    /// row of `itemColumns, titleKey, priceMinorUnits`.
    struct ListedItem {
        var item: Item
        /// `titleKey`, or `createdAt` as stored (the token compares it as text).
        var keyText: String?
        /// `priceMinorUnits`.
        var keyNumber: Int64?

        init(_ columns: ColumnReader, sort: ItemSort) {
            item = SQLiteCatalogStore.item(columns)
            switch sort {
            case .title: keyText = columns.string(12)
            case .createdAt: keyText = columns.string(9)
            case .price: keyNumber = columns.optionalInt64(13)
            }
        }
    }

    /// One SQL statement and its arguments.
    struct Statement: Sendable {
        var sql: String
        var arguments: StatementArguments
    }

    /// How `listItems` reads: the count of the filtered set, then page segments read in order, each
    /// taking a final `LIMIT ?` argument, until the page is full.
    struct ItemListPlan: Sendable {
        var count: Statement
        var segments: [Statement]
        /// The filters, for telling a token of another query.
        var filter: String
    }

    /// Every ordering is one an index serves in either direction: `(categoryId?, key, id)`. Price
    /// reads the priced items first, then those without a price (last in both directions) by id.
    static func itemListPlan(_ query: ItemQuery) throws(CatalogError) -> ItemListPlan {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let categoryID = query.categoryID {
            conditions.append("categoryId = ?")
            arguments += [categoryID]
        }
        if let level = query.level {
            conditions.append("level = ?")
            arguments += [level]
        }
        let search = query.foldedSearch
        if let search {
            conditions.append("instr(searchText, ?) > 0")
            arguments += [search]
        }
        let filter = query.pageFilter
        func statement(_ extra: [String], _ extraArguments: StatementArguments, order: String?) -> Statement {
            let all = conditions + extra
            var sql = "SELECT \(order == nil ? "COUNT(*)" : "\(itemColumns), titleKey, priceMinorUnits") FROM item"
            if !all.isEmpty { sql += " WHERE " + all.joined(separator: " AND ") }
            if let order { sql += " ORDER BY \(order) LIMIT ?" }
            return Statement(sql: sql, arguments: arguments + extraArguments)
        }
        // The category's maintained itemCount is exact (every write keeps it), so a listing
        // filtered by category alone need not count a possibly large index range.
        let count =
            query.categoryID != nil && query.level == nil && search == nil
            ? Statement(sql: "SELECT COALESCE((SELECT itemCount FROM category WHERE id = ?), 0)", arguments: [query.categoryID])
            : statement([], [], order: nil)

        let token = try query.continuation()
        let comparison = query.descending ? "<" : ">"
        let direction = query.descending ? "DESC" : "ASC"
        switch query.sort {
        case .title, .createdAt:
            let column = query.sort == .title ? "titleKey" : "createdAt"
            let order = "\(column) \(direction), id \(direction)"
            guard let token else {
                return ItemListPlan(count: count, segments: [statement([], [], order: order)], filter: filter)
            }
            guard let text = token.text else { throw CatalogError.invalidField("pageToken", "is not a page token") }
            let segment = statement(["(\(column), id) \(comparison) (?, ?)"], [text, token.id], order: order)
            return ItemListPlan(count: count, segments: [segment], filter: filter)
        case .price:
            let pricedOrder = "priceMinorUnits \(direction), id \(direction)"
            let unpricedOrder = "id \(direction)"
            var segments: [Statement] = []
            if let token, token.number == nil {
                // Already among the items without a price.
                segments.append(
                    statement(["priceMinorUnits IS NULL", "id \(comparison) ?"], [token.id], order: unpricedOrder))
            } else {
                if let token, let number = token.number {
                    segments.append(
                        statement(
                            ["(priceMinorUnits, id) \(comparison) (?, ?)"], [number, token.id], order: pricedOrder))
                } else {
                    segments.append(statement(["priceMinorUnits IS NOT NULL"], [], order: pricedOrder))
                }
                segments.append(statement(["priceMinorUnits IS NULL"], [], order: unpricedOrder))
            }
            return ItemListPlan(count: count, segments: segments, filter: filter)
        }
    }

    public func itemNow(id: Int64) throws(CatalogError) -> Item {
        let generation = itemCache.generation  // before the read
        if let item = itemCache.item(id, at: generation) { return item }
        let item = try pointRead { db in try Self.fetchItem(db, id: id) }
        itemCache.keep(item, readAt: generation)
        return item
    }

    public func createItem(_ draft: ItemDraft) async throws(CatalogError) -> Item {
        let priceKey = try ItemKeys.priceKey(draft.price)
        return try await write { db in
            if let categoryID = draft.categoryID { _ = try Self.fetchCategory(db, id: categoryID) }
            let revision = try CatalogRevisionBump().revision(db)
            let id = try Self.insertItem(db, draft, priceKey: priceKey, now: Date().databaseValue, revision: revision)
            if let categoryID = draft.categoryID {
                try db.execute(
                    sql: "UPDATE category SET itemCount = itemCount + 1 WHERE id = ?", arguments: [categoryID])
            }
            return try Self.fetchItem(db, id: id)
        }
    }

    public func importItems(_ drafts: [ItemDraft]) async throws(CatalogError) -> ImportItemsResponse {
        let priceKeys = try ItemKeys.priceKeys(of: drafts)
        return try await write { [priceKeys] db in
            guard !drafts.isEmpty else {
                return ImportItemsResponse(created: 0, revision: try CatalogRevisionBump.current(db))
            }
            var added: [Int64: Int] = [:]
            for (index, draft) in drafts.enumerated() {
                guard let categoryID = draft.categoryID else { continue }
                if added[categoryID] == nil {
                    guard try Int64.fetchOne(db, sql: "SELECT id FROM category WHERE id = ?", arguments: [categoryID]) != nil
                    else { throw CatalogError.notFound("category", id: categoryID).atIndex(index) }
                }
                added[categoryID, default: 0] += 1
            }
            let revision = try CatalogRevisionBump().revision(db)
            // Formatted once: GRDB formats a `Date` with ICU each time it binds one.
            let now = Date().databaseValue
            let insert = try db.cachedStatement(sql: Self.insertItemSQL)
            var firstID: Int64?
            var lastID: Int64 = 0
            for (draft, priceKey) in zip(drafts, priceKeys) {
                try insert.execute(arguments: Self.insertArguments(draft, priceKey: priceKey, now: now, revision: revision))
                lastID = db.lastInsertedRowID
                if firstID == nil { firstID = lastID }
            }
            for (categoryID, count) in added {
                try db.execute(sql: "UPDATE category SET itemCount = itemCount + ? WHERE id = ?", arguments: [count, categoryID])
            }
            return ImportItemsResponse(created: drafts.count, firstId: firstID, lastId: lastID, revision: revision)
        }
    }

    private static let insertItemSQL = """
        INSERT INTO item (title, summary, level, duration, priceAmount, priceCurrency, priceMinorUnits, imageURL,
            categoryId, titleKey, searchText, createdAt, updatedAt, revision)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    private static func insertArguments(_ draft: ItemDraft, priceKey: Int64?, now: DatabaseValue, revision: Int64) -> StatementArguments {
        [
            draft.title, draft.summary, draft.level, draft.duration, draft.price?.amount, draft.price?.currency,
            priceKey, draft.imageURL, draft.categoryID, Folding.folded(draft.title),
            ItemKeys.searchText(title: draft.title, summary: draft.summary), now, now, revision,
        ]
    }

    /// Inserts one item; returns its id.
    private static func insertItem(_ db: Database, _ draft: ItemDraft, priceKey: Int64?, now: DatabaseValue, revision: Int64) throws -> Int64 {
        try db.execute(sql: insertItemSQL, arguments: insertArguments(draft, priceKey: priceKey, now: now, revision: revision))
        return db.lastInsertedRowID
    }

    public func updateItem(id: Int64, _ changes: ItemChanges) async throws(CatalogError) -> Item {
        _ = try ItemKeys.priceKey(changes.price.applied(to: nil))
        return try await write { db in
            let current = try Self.fetchItem(db, id: id)
            if case .set(let categoryID) = changes.categoryID { _ = try Self.fetchCategory(db, id: categoryID) }
            let updated = changes.applied(to: current)
            guard updated != current else { return current }
            let now = Date()
            let bump = CatalogRevisionBump()
            if updated.categoryId != current.categoryId {
                try Self.setItemCategory(db, itemID: id, from: current.categoryId, to: updated.categoryId, now: now, bump: bump)
            }
            try db.execute(
                sql: """
                    UPDATE item SET title = ?, summary = ?, level = ?, duration = ?, priceAmount = ?, priceCurrency = ?,
                        priceMinorUnits = ?, imageURL = ?, titleKey = ?, searchText = ?, updatedAt = ?, revision = ?
                    WHERE id = ?
                    """,
                arguments: [
                    updated.title, updated.summary, updated.level, updated.duration, updated.price?.amount,
                    updated.price?.currency, try ItemKeys.priceKey(updated.price), updated.imageURL,
                    Folding.folded(updated.title),
                    ItemKeys.searchText(title: updated.title, summary: updated.summary), now, try bump.revision(db), id,
                ])
            return try Self.fetchItem(db, id: id)
        }
    }

    public func deleteItem(id: Int64) async throws(CatalogError) {
        try await write { db in
            let item = try Self.fetchItem(db, id: id)
            try db.execute(sql: "DELETE FROM item WHERE id = ?", arguments: [id])
            _ = try CatalogRevisionBump().revision(db)
            if let categoryID = item.categoryId {
                try db.execute(
                    sql: "UPDATE category SET itemCount = itemCount - 1 WHERE id = ?", arguments: [categoryID])
            }
        }
    }

    // MARK: Helpers

    /// The columns `item(_:)` reads, in its order; queries select them first.
    static let itemColumns =
        "id, title, summary, level, duration, priceAmount, priceCurrency, imageURL, categoryId, createdAt, updatedAt, revision"

    /// An item from a row that starts with `itemColumns` (read by position: no name lookups).
    static func item(_ columns: ColumnReader) -> Item {
        var price: Money?
        if let amount = columns.optionalString(5), let currency = columns.optionalString(6) {
            price = Money(amount: amount, currency: currency)
        }
        return Item(
            id: columns.int64(0), title: columns.string(1), summary: columns.optionalString(2),
            level: columns.optionalString(3), duration: columns.optionalString(4), price: price,
            imageURL: columns.optionalString(7), categoryId: columns.optionalInt64(8), createdAt: columns.date(9),
            updatedAt: columns.date(10), revision: columns.int64(11))
    }

    static func fetchItem(_ db: Database, id: Int64) throws -> Item {
        guard let item = try db.fetchAll(sql: "SELECT \(itemColumns) FROM item WHERE id = ?", arguments: [id], item).first
        else {
            throw CatalogError.notFound("item", id: id)
        }
        return item
    }
}
