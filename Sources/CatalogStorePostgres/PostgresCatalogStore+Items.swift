import CatalogAPI
import CatalogStore
import Foundation
import PostgresNIO

extension PostgresCatalogStore {
    public func listItems(_ query: ItemQuery) async throws(CatalogError) -> ListItemsResponse {
        let plan = try Self.itemListPlan(query)
        let pageSize = query.pageSize
        let sort = query.sort
        let descending = query.descending
        return try await readSnapshot { transaction in
            let revision = try await Self.catalogRevision(transaction)
            let total = try await transaction.query(plan.count).first?.decode(Int.self) ?? 0
            var listed: [(item: Item, titleKey: String, priceKey: Int64?)] = []
            for segment in plan.segments where listed.count <= pageSize {
                var statement = segment
                statement.sql += " LIMIT \(pageSize + 1 - listed.count)"
                for row in try await transaction.query(statement) {
                    listed.append(try Self.listedItem(row))
                }
            }
            let page = listed.prefix(pageSize)
            var next: String?
            if listed.count > pageSize, let last = page.last {
                next = PageToken(
                    sort: sort.rawValue, descending: descending, filter: plan.filter,
                    text: sort == .title ? last.titleKey : nil,
                    number: sort == .title ? nil : sort == .price ? last.priceKey : StoredFilter.milliseconds(last.item.createdAt),
                    id: last.item.id
                ).encoded()
            }
            return ListItemsResponse(items: page.map(\.item), nextPageToken: next, totalCount: total, revision: revision)
        }
    }

    /// How `listItems` reads: the count of the filtered set, then page segments read in order
    /// (each gets its `LIMIT`) until the page is full.
    struct ItemListPlan: Sendable {
        var count: PostgresQuery
        var segments: [PostgresQuery]
        /// The filters, for telling a token of another query.
        var filter: String
    }

    /// Every ordering is one an index serves in either direction: `(category_id?, key, id)`.
    /// Price reads the priced items first, then those without a price (last in both
    /// directions) by id.
    static func itemListPlan(_ query: ItemQuery) throws(CatalogError) -> ItemListPlan {
        var conditions: [String] = []
        var bindings = PostgresBindings()
        if let categoryID = query.categoryID {
            bindings.append(categoryID)
            conditions.append("category_id = $\(bindings.count)")
        }
        if let level = query.level {
            bindings.append(level)
            conditions.append("level = $\(bindings.count)")
        }
        let search = query.foldedSearch
        if let search {
            bindings.append(search)
            conditions.append("strpos(search_text, $\(bindings.count)) > 0")
        }
        let filter = query.pageFilter
        /// A statement over the filters plus `extra` conditions, whose `?` take `extraValues` in order.
        func statement(_ extra: [String], _ extraValues: [KeyValue], order: String?) -> PostgresQuery {
            var binds = bindings
            var all = conditions
            for condition in extra {
                var text = condition
                while let placeholder = text.range(of: "?") {
                    switch extraValues[binds.count - bindings.count] {
                    case .text(let text): binds.append(text)
                    case .number(let number): binds.append(number)
                    }
                    text.replaceSubrange(placeholder, with: "$\(binds.count)")
                }
                all.append(text)
            }
            var sql = "SELECT \(order == nil ? "count(*)" : "\(itemColumns), title_key, price_minor_units") FROM item"
            if !all.isEmpty { sql += " WHERE " + all.joined(separator: " AND ") }
            if let order { sql += " ORDER BY \(order)" }
            return PostgresQuery(unsafeSQL: sql, binds: binds)
        }
        // The category's maintained item_count is exact (every write keeps it), so a listing
        // filtered by category alone need not count a possibly large index range.
        let count: PostgresQuery =
            if let categoryID = query.categoryID, query.level == nil, search == nil {
                "SELECT coalesce((SELECT item_count FROM category WHERE id = \(categoryID)), 0)"
            } else {
                statement([], [], order: nil)
            }

        let token = try query.continuation()
        let comparison = query.descending ? "<" : ">"
        let direction = query.descending ? "DESC" : "ASC"
        switch query.sort {
        case .title:
            let order = "title_key \(direction), id \(direction)"
            guard let token else { return ItemListPlan(count: count, segments: [statement([], [], order: order)], filter: filter) }
            guard let text = token.text else { throw CatalogError.invalidField("pageToken", "is not a page token") }
            let segment = statement(["(title_key, id) \(comparison) (?, ?)"], [.text(text), .number(token.id)], order: order)
            return ItemListPlan(count: count, segments: [segment], filter: filter)
        case .createdAt:
            let order = "created_at \(direction), id \(direction)"
            guard let token else { return ItemListPlan(count: count, segments: [statement([], [], order: order)], filter: filter) }
            guard let number = token.number else { throw CatalogError.invalidField("pageToken", "is not a page token") }
            let segment = statement(["(created_at, id) \(comparison) (?, ?)"], [.number(number), .number(token.id)], order: order)
            return ItemListPlan(count: count, segments: [segment], filter: filter)
        case .price:
            let pricedOrder = "price_minor_units \(direction), id \(direction)"
            let unpricedOrder = "id \(direction)"
            var segments: [PostgresQuery] = []
            if let token, token.number == nil {
                // Already among the items without a price.
                segments.append(statement(["price_minor_units IS NULL", "id \(comparison) ?"], [.number(token.id)], order: unpricedOrder))
            } else {
                if let token, let number = token.number {
                    segments.append(
                        statement(["(price_minor_units, id) \(comparison) (?, ?)"], [.number(number), .number(token.id)], order: pricedOrder))
                } else {
                    segments.append(statement(["price_minor_units IS NOT NULL"], [], order: pricedOrder))
                }
                segments.append(statement(["price_minor_units IS NULL"], [], order: unpricedOrder))
            }
            return ItemListPlan(count: count, segments: segments, filter: filter)
        }
    }

    /// A page token's key, bound into a listing's statement.
    enum KeyValue {
        case text(String)
        case number(Int64)
    }

    /// From the kept items when it is there, else one row (then kept).
    public func item(id: Int64) async throws(CatalogError) -> Item {
        let stamp = itemCache.generation.current  // before the read begins
        if let stamp, let item = itemCache.item(id, at: stamp) { return item }
        let item = try await read { transaction in try await Self.fetchItem(transaction, id: id) }
        if let stamp { itemCache.keep(item, readAt: stamp) }
        return item
    }

    public func createItem(_ draft: ItemDraft) async throws(CatalogError) -> Item {
        let priceKey = try ItemKeys.priceKey(draft.price)
        return try await write { transaction in
            try await transaction.lockCatalog()
            try await transaction.itemsChange()
            if let categoryID = draft.categoryID {
                _ = try await Self.fetchCategory(transaction, id: categoryID)
                try await transaction.categoriesChange()
                try await transaction.query("UPDATE category SET item_count = item_count + 1 WHERE id = \(categoryID)")
            }
            let now = Self.now()
            let revision = try await transaction.itemRevision()
            let rows = try await transaction.query(
                """
                INSERT INTO item (title, summary, level, duration, price_amount, price_currency, price_minor_units,
                    image_url, category_id, title_key, search_text, created_at, updated_at, revision)
                VALUES (\(draft.title), \(draft.summary), \(draft.level), \(draft.duration), \(draft.price?.amount),
                    \(draft.price?.currency), \(priceKey), \(draft.imageURL), \(draft.categoryID),
                    \(Folding.folded(draft.title)), \(ItemKeys.searchText(title: draft.title, summary: draft.summary)),
                    \(now), \(now), \(revision))
                RETURNING \(unescaped: Self.itemColumns)
                """)
            guard let row = rows.first else { throw CatalogError.storage("an insert returned no row") }
            return try Self.item(row)
        }
    }

    public func updateItem(id: Int64, _ changes: ItemChanges) async throws(CatalogError) -> Item {
        _ = try ItemKeys.priceKey(changes.price.applied(to: nil))
        return try await write { transaction in
            try await transaction.lockCatalog()
            let current = try await Self.fetchItem(transaction, id: id)
            if case .set(let categoryID) = changes.categoryID { _ = try await Self.fetchCategory(transaction, id: categoryID) }
            let updated = changes.applied(to: current)
            guard updated != current else { return current }
            try await transaction.itemsChange()
            if updated.categoryId != current.categoryId {
                try await transaction.categoriesChange()
                if let from = current.categoryId {
                    try await transaction.query("UPDATE category SET item_count = item_count - 1 WHERE id = \(from)")
                }
                if let to = updated.categoryId {
                    try await transaction.query("UPDATE category SET item_count = item_count + 1 WHERE id = \(to)")
                }
            }
            let rows = try await transaction.query(
                """
                UPDATE item SET title = \(updated.title), summary = \(updated.summary), level = \(updated.level),
                    duration = \(updated.duration), price_amount = \(updated.price?.amount),
                    price_currency = \(updated.price?.currency), price_minor_units = \(try ItemKeys.priceKey(updated.price)),
                    image_url = \(updated.imageURL), category_id = \(updated.categoryId),
                    title_key = \(Folding.folded(updated.title)),
                    search_text = \(ItemKeys.searchText(title: updated.title, summary: updated.summary)),
                    updated_at = \(Self.now()), revision = \(try await transaction.itemRevision())
                WHERE id = \(id)
                RETURNING \(unescaped: Self.itemColumns)
                """)
            guard let row = rows.first else { throw CatalogError.notFound("item", id: id) }
            return try Self.item(row)
        }
    }

    public func deleteItem(id: Int64) async throws(CatalogError) {
        try await write { transaction in
            try await transaction.lockCatalog()
            try await transaction.itemsChange()
            let rows = try await transaction.query("DELETE FROM item WHERE id = \(id) RETURNING category_id")
            guard let row = rows.first else { throw CatalogError.notFound("item", id: id) }
            _ = try await transaction.itemRevision()
            if let categoryID = try row.decode(Int64?.self) {
                try await transaction.categoriesChange()
                try await transaction.query("UPDATE category SET item_count = item_count - 1 WHERE id = \(categoryID)")
            }
        }
    }

    // MARK: Helpers

    /// The columns `item(_:)` reads, in its order; queries select them first.
    static let itemColumns =
        "id, title, summary, level, duration, price_amount, price_currency, image_url, category_id, created_at, updated_at, revision"

    static func item(_ row: PostgresRow) throws -> Item {
        let (id, title, summary, level, duration, amount, currency, imageURL, categoryID, createdAt, updatedAt, revision) =
            try row.decode((Int64, String, String?, String?, String?, String?, String?, String?, Int64?, Int64, Int64, Int64).self)
        return makeItem(
            id: id, title: title, summary: summary, level: level, duration: duration, amount: amount, currency: currency,
            imageURL: imageURL, categoryID: categoryID, createdAt: createdAt, updatedAt: updatedAt, revision: revision)
    }

    /// An item of a listing with its sort keys, from a row of `itemColumns, title_key, price_minor_units`.
    static func listedItem(_ row: PostgresRow) throws -> (item: Item, titleKey: String, priceKey: Int64?) {
        let (id, title, summary, level, duration, amount, currency, imageURL, categoryID, createdAt, updatedAt, revision, titleKey, priceKey) =
            try row.decode(
                (Int64, String, String?, String?, String?, String?, String?, String?, Int64?, Int64, Int64, Int64, String, Int64?).self)
        let item = makeItem(
            id: id, title: title, summary: summary, level: level, duration: duration, amount: amount, currency: currency,
            imageURL: imageURL, categoryID: categoryID, createdAt: createdAt, updatedAt: updatedAt, revision: revision)
        return (item, titleKey, priceKey)
    }

    // swift-format-ignore: the columns of `itemColumns`, one parameter each
    private static func makeItem(
        id: Int64, title: String, summary: String?, level: String?, duration: String?, amount: String?, currency: String?,
        imageURL: String?, categoryID: Int64?, createdAt: Int64, updatedAt: Int64, revision: Int64
    ) -> Item {
        var price: Money?
        if let amount, let currency { price = Money(amount: amount, currency: currency) }
        return Item(
            id: id, title: title, summary: summary, level: level, duration: duration, price: price, imageURL: imageURL,
            categoryId: categoryID, createdAt: StoredFilter.date(milliseconds: createdAt), updatedAt: StoredFilter.date(milliseconds: updatedAt),
            revision: revision)
    }

    /// The revision of the last committed write that changed items, as `transaction` reads.
    static func catalogRevision(_ transaction: Transaction) async throws -> Int64 {
        try await transaction.query("SELECT revision FROM catalog_revision").first?.decode(Int64.self) ?? 1
    }

    public func importItems(_ drafts: [ItemDraft]) async throws(CatalogError) -> ImportItemsResponse {
        let priceKeys = try ItemKeys.priceKeys(of: drafts)
        return try await write { [priceKeys] transaction in
            try await transaction.lockCatalog()
            guard !drafts.isEmpty else { return ImportItemsResponse(created: 0, revision: try await Self.catalogRevision(transaction)) }
            var added: [Int64: Int] = [:]
            for draft in drafts { if let categoryID = draft.categoryID { added[categoryID, default: 0] += 1 } }
            let named = Array(added.keys)
            var existing = Set<Int64>()
            for row in try await transaction.query("SELECT id FROM category WHERE id = ANY(\(named))") {
                existing.insert(try row.decode(Int64.self))
            }
            if let index = drafts.firstIndex(where: { $0.categoryID.map { !existing.contains($0) } ?? false }) {
                throw CatalogError.notFound("category", id: drafts[index].categoryID!).atIndex(index)
            }
            try await transaction.itemsChange()
            if !added.isEmpty { try await transaction.categoriesChange() }
            let revision = try await transaction.itemRevision()
            let now = Self.now()
            // Column arrays unnested in one statement per batch; ids come from the sequence in
            // order, and the catalog lock keeps other writers out, so they are consecutive.
            var firstID: Int64?
            var lastID: Int64 = 0
            for start in stride(from: 0, to: drafts.count, by: Self.importBatchSize) {
                let batch = start..<min(start + Self.importBatchSize, drafts.count)
                let rows = try await transaction.query(try Self.importStatement(drafts[batch], priceKeys[batch], now: now, revision: revision))
                for row in rows {
                    let id = try row.decode(Int64.self)
                    firstID = min(firstID ?? id, id)
                    lastID = max(lastID, id)
                }
            }
            for (categoryID, count) in added {
                try await transaction.query("UPDATE category SET item_count = item_count + \(count) WHERE id = \(categoryID)")
            }
            return ImportItemsResponse(created: drafts.count, firstId: firstID, lastId: lastID, revision: revision)
        }
    }

    /// Items inserted by one statement of an import.
    private static let importBatchSize = 5_000

    /// One `INSERT … SELECT` of a batch of an import, returning the new ids in order: the batch
    /// goes as one JSON array (absent keys read as NULL), unpacked in order by the server.
    private static func importStatement(
        _ drafts: ArraySlice<ItemDraft>, _ priceKeys: ArraySlice<Int64?>, now: Int64, revision: Int64
    ) throws -> PostgresQuery {
        let rows = zip(drafts, priceKeys).map { draft, priceKey in
            ImportRow(
                title: draft.title, summary: draft.summary, level: draft.level, duration: draft.duration,
                priceAmount: draft.price?.amount, priceCurrency: draft.price?.currency, priceMinorUnits: priceKey,
                imageURL: draft.imageURL, categoryID: draft.categoryID, titleKey: Folding.folded(draft.title),
                searchText: ItemKeys.searchText(title: draft.title, summary: draft.summary))
        }
        let json = String(decoding: try JSONEncoder().encode(rows), as: UTF8.self)
        return """
            INSERT INTO item (title, summary, level, duration, price_amount, price_currency, price_minor_units,
                image_url, category_id, title_key, search_text, created_at, updated_at, revision)
            SELECT row->>'title', row->>'summary', row->>'level', row->>'duration', row->>'priceAmount',
                row->>'priceCurrency', (row->>'priceMinorUnits')::bigint, row->>'imageURL', (row->>'categoryID')::bigint,
                row->>'titleKey', row->>'searchText', \(now), \(now), \(revision)
            FROM jsonb_array_elements(\(json)::jsonb) WITH ORDINALITY AS draft (row, position)
            ORDER BY position
            RETURNING id
            """
    }

    /// A draft of an import as its statement's JSON holds it.
    private struct ImportRow: Encodable {
        var title: String
        var summary: String?
        var level: String?
        var duration: String?
        var priceAmount: String?
        var priceCurrency: String?
        var priceMinorUnits: Int64?
        var imageURL: String?
        var categoryID: Int64?
        var titleKey: String
        var searchText: String
    }

    static func fetchItem(_ transaction: Transaction, id: Int64) async throws -> Item {
        var query = PostgresQuery(unsafeSQL: "SELECT \(itemColumns) FROM item WHERE id = $1")
        query.binds.append(id)
        guard let row = try await transaction.query(query).first else { throw CatalogError.notFound("item", id: id) }
        return try item(row)
    }
}
