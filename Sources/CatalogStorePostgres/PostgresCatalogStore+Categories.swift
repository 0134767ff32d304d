import CatalogAPI
import CatalogStore
import Foundation
import PostgresNIO

extension PostgresCatalogStore {
    // MARK: Reads

    public func listCategories(_ query: CategoryQuery) async throws(CatalogError) -> [Category] {
        query.select(from: try await allCategories())
    }

    /// Every category in position order, from the cache while no category changed since it was read.
    func allCategories() async throws(CatalogError) -> [Category] {
        let stamp = categoryCache.generation.current  // before the read begins
        if let stamp, let categories = categoryCache.categories(at: stamp) { return categories }
        let categories = try await read { transaction in
            try await Self.fetchCategories(transaction, "ORDER BY position")
        }
        if let stamp { categoryCache.keep(categories, readAt: stamp) }
        return categories
    }

    /// From the kept categories when they hold, else one row.
    public func category(id: Int64) async throws(CatalogError) -> Category {
        if let stamp = categoryCache.generation.current, let categories = categoryCache.categories(at: stamp) {
            guard let category = categories.first(where: { $0.id == id }) else { throw .notFound("category", id: id) }
            return category
        }
        return try await read { transaction in try await Self.fetchCategory(transaction, id: id) }
    }

    /// Every item is in one category or in none, and each `item_count` is exact (every write
    /// keeps it): the counts plus the uncategorized items are the total. The kept categories
    /// serve when they still hold once the uncategorized items are counted; else one statement
    /// reads both.
    public func stats() async throws(CatalogError) -> CategoryStats {
        if let stamp = categoryCache.generation.current, let categories = categoryCache.categories(at: stamp) {
            let uncategorized = try await read { transaction in
                try await transaction.query("SELECT count(*) FROM item WHERE category_id IS NULL").first?.decode(Int.self) ?? 0
            }
            if categoryCache.generation.holds(stamp) {
                let entries = categories.map { CategoryStats.Entry(id: $0.id, name: $0.name, itemCount: $0.itemCount, share: 0) }
                return CategoryStats(entries: entries, uncategorizedItemCount: uncategorized)
            }
        }
        let rows = try await read { transaction in
            try await transaction.query(
                """
                SELECT id, name, item_count, (SELECT count(*) FROM item WHERE category_id IS NULL)
                FROM category ORDER BY position
                """)
        }
        do {
            var uncategorized = 0
            var entries: [CategoryStats.Entry] = []
            entries.reserveCapacity(rows.count)
            for row in rows {
                let (id, name, itemCount, unassigned) = try row.decode((Int64, String, Int, Int).self)
                entries.append(CategoryStats.Entry(id: id, name: name, itemCount: itemCount, share: 0))
                uncategorized = unassigned
            }
            return CategoryStats(entries: entries, uncategorizedItemCount: uncategorized)
        } catch {
            throw storeError(error)
        }
    }

    public func exportCategories() async throws(CatalogError) -> [CategoryRecord] {
        try await allCategories().map(CategoryRecord.init)
    }

    // MARK: Writes

    public func createCategory(_ draft: CategoryDraft) async throws(CatalogError) -> Category {
        try await write { transaction in
            try await transaction.lockCatalog()
            let bound = try await self.boundFilters(transaction)
            try await Self.checkSlugFree(transaction, draft.name.slug, except: nil)
            let count = try await Self.categoryCount(transaction)
            let id = try await Self.insertCategory(
                transaction, name: draft.name, color: draft.color ?? CategoryPalette.color(forPosition: count),
                icon: draft.icon, position: count, isDefault: false, now: Self.now())
            let created = try await Self.fetchCategory(transaction, id: id)
            try await self.syncCategoryFilters(transaction, bound, edits: CategoryMirror.created(created))
            return created
        }
    }

    public func updateCategory(id: Int64, _ changes: CategoryChanges, expectedRevision: Int64?)
        async throws(CatalogError)
        -> Category
    {
        try await write { transaction in
            try await transaction.lockCatalog()
            let bound = try await self.boundFilters(transaction)
            let current = try await Self.fetchCategory(transaction, id: id)
            try Self.checkRevision(current, expectedRevision)
            if let name = changes.name, name.slug != current.slug {
                try await Self.checkSlugFree(transaction, name.slug, except: id)
            }
            let updated = changes.applied(to: current)
            guard updated != current else { return current }
            try await transaction.categoriesChange()
            try await transaction.query(
                """
                UPDATE category SET name = \(updated.name), slug = \(updated.slug), color = \(updated.color),
                    icon = \(updated.icon), is_default = \(updated.isDefault), revision = revision + 1,
                    updated_at = \(Self.now())
                WHERE id = \(id)
                """)
            try await self.syncCategoryFilters(transaction, bound, edits: CategoryMirror.updated(from: current, to: updated))
            return try await Self.fetchCategory(transaction, id: id)
        }
    }

    public func deleteCategory(_ request: CategoryDeletion) async throws(CatalogError) -> DeleteCategoryResponse {
        try await write(dryRun: request.dryRun) { transaction in
            try await transaction.lockCatalog()
            let bound = try await self.boundFilters(transaction)
            let category = try await Self.fetchCategory(transaction, id: request.id)
            try Self.checkRevision(category, request.expectedRevision)
            if category.isDefault { throw CatalogError.defaultCategory(id: category.id) }
            if try await Self.categoryCount(transaction) <= 1 { throw CatalogError.lastCategory }
            let now = Self.now()
            var response = DeleteCategoryResponse(deletedItems: 0, movedItems: 0, unassignedItems: 0)
            try await transaction.categoriesChange()
            switch request.items {
            case .reject:
                if category.itemCount > 0 { throw CatalogError.categoryNotEmpty(itemCount: category.itemCount) }
            case .delete:
                try await transaction.itemsChange()
                response.deletedItems = try await transaction.changedRows("DELETE FROM item WHERE category_id = \(category.id)")
                if response.deletedItems > 0 { _ = try await transaction.itemRevision() }
            case .unassign:
                response.unassignedItems = try await Self.reassignItems(transaction, from: category.id, holding: category.itemCount, to: nil, now: now)
            case .move:
                guard let moveTo = request.moveTo else { throw CatalogError.moveToRequired }
                if moveTo == category.id {
                    throw CatalogError.invalidField("moveTo", "must name another category than the one deleted")
                }
                _ = try await Self.fetchCategory(transaction, id: moveTo)
                response.movedItems = try await Self.reassignItems(
                    transaction, from: category.id, holding: category.itemCount, to: moveTo, now: now)
            }
            try await transaction.query("DELETE FROM category WHERE id = \(category.id)")
            try await transaction.query(
                """
                UPDATE category SET position = position - 1, revision = revision + 1, updated_at = \(now)
                WHERE position > \(category.position)
                """)
            try await self.syncCategoryFilters(transaction, bound, edits: CategoryMirror.deleted(category))
            return response
        }
    }

    public func moveCategory(id: Int64, to target: MoveTarget, expectedRevision: Int64?) async throws(CatalogError) -> [Category] {
        try await write { transaction in
            try await transaction.lockCatalog()
            let bound = try await self.boundFilters(transaction)
            let category = try await Self.fetchCategory(transaction, id: id)
            try Self.checkRevision(category, expectedRevision)
            let count = try await Self.categoryCount(transaction)
            let from = category.position
            let to = try target.destination(from: from, count: count)
            if to != from {
                let now = Self.now()
                try await transaction.categoriesChange()
                if to < from {
                    try await transaction.query(
                        """
                        UPDATE category SET position = position + 1, revision = revision + 1, updated_at = \(now)
                        WHERE position >= \(to) AND position < \(from)
                        """)
                } else {
                    try await transaction.query(
                        """
                        UPDATE category SET position = position - 1, revision = revision + 1, updated_at = \(now)
                        WHERE position > \(from) AND position <= \(to)
                        """)
                }
                try await transaction.query(
                    "UPDATE category SET position = \(to), revision = revision + 1, updated_at = \(now) WHERE id = \(id)")
                try await self.syncCategoryFilters(transaction, bound, edits: CategoryMirror.moved(category, to: to))
            }
            return try await Self.fetchCategories(transaction, "ORDER BY position")
        }
    }

    public func mergeCategories(sourceIDs: [Int64], into targetID: Int64, dryRun: Bool) async throws(CatalogError)
        -> MergeCategoriesResponse
    {
        try await write(dryRun: dryRun) { transaction in
            try await transaction.lockCatalog()
            let bound = try await self.boundFilters(transaction)
            var seen = Set<Int64>()
            let sources = sourceIDs.filter { seen.insert($0).inserted }
            if sources.isEmpty { throw CatalogError.invalidField("sourceIds", "must name at least one category") }
            var sourceCategories: [Category] = []
            for id in sources {
                sourceCategories.append(try await Self.fetchCategory(transaction, id: id))
            }
            _ = try await Self.fetchCategory(transaction, id: targetID)
            if sources.contains(targetID) {
                throw CatalogError.invalidField("sourceIds", "must not contain the target \(targetID)")
            }
            if let defaultSource = sourceCategories.first(where: \.isDefault) {
                throw CatalogError.defaultCategory(id: defaultSource.id)
            }
            let now = Self.now()
            try await transaction.categoriesChange()
            var moved = 0
            for source in sourceCategories {
                moved += try await Self.reassignItems(transaction, from: source.id, holding: source.itemCount, to: targetID, now: now)
                try await transaction.query("DELETE FROM category WHERE id = \(source.id)")
            }
            try await Self.compactPositions(transaction, now: now)
            try await self.syncCategoryFilters(transaction, bound)
            return MergeCategoriesResponse(
                target: try await Self.fetchCategory(transaction, id: targetID), movedItems: moved, deletedIds: sources)
        }
    }

    public func assignItems(_ itemIDs: [Int64], to categoryID: Int64?, dryRun: Bool) async throws(CatalogError) -> Int {
        try await write(dryRun: dryRun) { transaction in
            try await transaction.lockCatalog()
            var seen = Set<Int64>()
            let ids = itemIDs.filter { seen.insert($0).inserted }
            var current: [Int64: Int64?] = [:]
            for row in try await transaction.query("SELECT id, category_id FROM item WHERE id = ANY(\(ids))") {
                let (id, category) = try row.decode((Int64, Int64?).self)
                current[id] = category
            }
            if let missing = ids.first(where: { current[$0] == nil }) { throw CatalogError.notFound("item", id: missing) }
            if let categoryID { _ = try await Self.fetchCategory(transaction, id: categoryID) }
            let changing = ids.filter { current[$0]! != categoryID }
            guard !changing.isEmpty else { return 0 }
            try await transaction.categoriesChange()
            try await transaction.itemsChange()
            try await transaction.query(
                """
                UPDATE item SET category_id = \(categoryID), updated_at = \(Self.now()), revision = \(try await transaction.itemRevision())
                WHERE id = ANY(\(changing))
                """)
            var leaving: [Int64: Int] = [:]
            for id in changing {
                if let from = current[id]! { leaving[from, default: 0] += 1 }
            }
            for (from, count) in leaving {
                try await transaction.query("UPDATE category SET item_count = item_count - \(count) WHERE id = \(from)")
            }
            if let categoryID {
                try await transaction.query(
                    "UPDATE category SET item_count = item_count + \(changing.count) WHERE id = \(categoryID)")
            }
            return changing.count
        }
    }

    public func moveItems(from: Int64, to: Int64) async throws(CatalogError) -> Int {
        try await write { transaction in
            try await transaction.lockCatalog()
            let source = try await Self.fetchCategory(transaction, id: from)
            _ = try await Self.fetchCategory(transaction, id: to)
            if from == to { return 0 }
            try await transaction.categoriesChange()
            return try await Self.reassignItems(transaction, from: from, holding: source.itemCount, to: to, now: Self.now())
        }
    }

    public func importCategories(_ records: [CategoryImport], mode: ImportMode, dryRun: Bool) async throws(CatalogError)
        -> ImportCategoriesResponse
    {
        try await write(dryRun: dryRun) { transaction in
            try await transaction.lockCatalog()
            let bound = try await self.boundFilters(transaction)
            var slugs = Set<String>()
            for record in records where !slugs.insert(record.name.slug).inserted {
                throw CatalogError.invalidField("categories", "names \"\(record.name.name)\" more than once")
            }
            let now = Self.now()
            var response = ImportCategoriesResponse(created: 0, updated: 0, unchanged: 0, deleted: 0)
            try await transaction.categoriesChange()
            if mode == .replace {
                var doomed: [(id: Int64, itemCount: Int)] = []
                for row in try await transaction.query("SELECT id, slug, item_count FROM category WHERE NOT is_default ORDER BY id") {
                    let (id, slug, itemCount) = try row.decode((Int64, String, Int).self)
                    if !slugs.contains(slug) { doomed.append((id, itemCount)) }
                }
                for (id, itemCount) in doomed {
                    _ = try await Self.reassignItems(transaction, from: id, holding: itemCount, to: nil, now: now)
                    try await transaction.query("DELETE FROM category WHERE id = \(id)")
                }
                response.deleted = doomed.count
                try await Self.compactPositions(transaction, now: now)
            }
            for record in records {
                if let existing = try await Self.fetchCategories(transaction, "WHERE slug = \(record.name.slug)").first {
                    if existing.name == record.name.name && existing.color == record.color && existing.icon == record.icon
                        && existing.isDefault == record.isDefault
                    {
                        response.unchanged += 1
                    } else {
                        try await transaction.query(
                            """
                            UPDATE category SET name = \(record.name.name), color = \(record.color), icon = \(record.icon),
                                is_default = \(record.isDefault), revision = revision + 1, updated_at = \(now)
                            WHERE id = \(existing.id)
                            """)
                        response.updated += 1
                    }
                } else {
                    _ = try await Self.insertCategory(
                        transaction, name: record.name, color: record.color, icon: record.icon,
                        position: try await Self.categoryCount(transaction), isDefault: record.isDefault, now: now)
                    response.created += 1
                }
            }
            if try await Self.categoryCount(transaction) == 0 { throw CatalogError.lastCategory }
            try await self.syncCategoryFilters(transaction, bound)
            return response
        }
    }

    // MARK: Helpers (inside a transaction)

    /// The columns `category(_:)` reads, in its order; queries select them.
    static let categoryColumns =
        "id, name, slug, color, icon, position, is_default, item_count, revision, created_at, updated_at"

    static func category(_ row: PostgresRow) throws -> Category {
        let (id, name, slug, color, icon, position, isDefault, itemCount, revision, createdAt, updatedAt) = try row.decode(
            (Int64, String, String, String, String?, Int, Bool, Int, Int64, Int64, Int64).self)
        return Category(
            id: id, name: name, slug: slug, color: color, icon: icon, position: position, isDefault: isDefault,
            itemCount: itemCount, revision: revision, createdAt: StoredFilter.date(milliseconds: createdAt),
            updatedAt: StoredFilter.date(milliseconds: updatedAt))
    }

    /// The categories `clause` selects (`WHERE …`, `ORDER BY …`), with its bindings.
    static func fetchCategories(_ transaction: Transaction, _ clause: PostgresQuery) async throws -> [Category] {
        var query = PostgresQuery(unsafeSQL: "SELECT \(categoryColumns) FROM category ", binds: clause.binds)
        query.sql += clause.sql
        return try await transaction.query(query).map(category)
    }

    static func fetchCategory(_ transaction: Transaction, id: Int64) async throws -> Category {
        guard let category = try await fetchCategories(transaction, "WHERE id = \(id)").first else {
            throw CatalogError.notFound("category", id: id)
        }
        return category
    }

    /// How many categories there are: positions are dense, so the largest one plus one (an
    /// index lookup, where a count would read ten thousand rows).
    static func categoryCount(_ transaction: Transaction) async throws -> Int {
        try await transaction.query("SELECT coalesce(max(position) + 1, 0) FROM category").first?.decode(Int.self) ?? 0
    }

    static func checkRevision(_ category: Category, _ expected: Int64?) throws {
        if let expected, expected != category.revision {
            throw CatalogError.revisionMismatch(expected: expected, actual: category.revision)
        }
    }

    static func checkSlugFree(_ transaction: Transaction, _ slug: String, except id: Int64?) async throws {
        if let existing = try await transaction.query("SELECT id FROM category WHERE slug = \(slug)").first?.decode(Int64.self),
            existing != id
        {
            throw CatalogError.duplicateName(existingID: existing)
        }
    }

    static func insertCategory(
        _ transaction: Transaction, name: CategoryName, color: String, icon: String?, position: Int, isDefault: Bool,
        now: Int64
    ) async throws -> Int64 {
        try await transaction.categoriesChange()
        let rows = try await transaction.query(
            """
            INSERT INTO category (name, slug, color, icon, position, is_default, item_count, revision, created_at, updated_at)
            VALUES (\(name.name), \(name.slug), \(color), \(icon), \(position), \(isDefault), 0, 1, \(now), \(now))
            RETURNING id
            """)
        guard let id = try rows.first?.decode(Int64.self) else { throw CatalogError.storage("an insert returned no id") }
        return id
    }

    /// Moves every item of category `from` to `to` (`nil`: unassigned), keeping both counts; returns how many.
    /// `held` is the category's `item_count` read in this transaction: kept exact by every
    /// write, it says whether anything moves, and so whether the write takes a catalog revision.
    static func reassignItems(_ transaction: Transaction, from: Int64, holding held: Int, to: Int64?, now: Int64) async throws -> Int {
        guard held > 0 else { return 0 }
        try await transaction.itemsChange()
        let moved = try await transaction.changedRows(
            """
            UPDATE item SET category_id = \(to), updated_at = \(now), revision = \(try await transaction.itemRevision())
            WHERE category_id = \(from)
            """)
        if moved > 0 {
            try await transaction.query("UPDATE category SET item_count = item_count - \(moved) WHERE id = \(from)")
            if let to {
                try await transaction.query("UPDATE category SET item_count = item_count + \(moved) WHERE id = \(to)")
            }
        }
        return moved
    }

    /// Renumbers positions 0..n-1 in their current order; a category whose position changes
    /// gets a new revision. One statement: after a merge, thousands of categories may shift.
    static func compactPositions(_ transaction: Transaction, now: Int64) async throws {
        try await transaction.query(
            """
            UPDATE category SET position = ranked.new_position, revision = category.revision + 1, updated_at = \(now)
            FROM (SELECT id, (row_number() OVER (ORDER BY position, id) - 1)::integer AS new_position FROM category) AS ranked
            WHERE category.id = ranked.id AND category.position <> ranked.new_position
            """)
    }

    // MARK: Time

    /// Now, in milliseconds since 1970: what the tables keep.
    static func now() -> Int64 {
        StoredFilter.milliseconds(Date())
    }
}
