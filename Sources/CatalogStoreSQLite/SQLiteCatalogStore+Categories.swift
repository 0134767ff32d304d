import CatalogAPI
import CatalogStore
import Foundation
import GRDB

extension SQLiteCatalogStore {
    // MARK: Reads

    public func listCategories(_ query: CategoryQuery) async throws(CatalogError) -> [Category] {
        query.select(from: try await allCategories())
    }

    /// Every category in position order, from the cache when no category changed since it was read.
    func allCategories() async throws(CatalogError) -> [Category] {
        let generation = categoryCache.generation  // before the read's transaction begins
        if let categories = categoryCache.categories(at: generation) { return categories }
        let categories = try await read { db in
            try db.fetchAll(sql: "SELECT \(Self.categoryColumns) FROM category ORDER BY position", Self.category)
        }
        categoryCache.keep(categories, readAt: generation)
        return categories
    }

    public func categoryNow(id: Int64) throws(CatalogError) -> Category {
        try pointRead { db in try Self.fetchCategory(db, id: id) }
    }

    public func stats() async throws(CatalogError) -> CategoryStats {
        try await read { db in
            // Every item is in one category or in none, and each `itemCount` is exact (every write
            // keeps it): the sum of the counts plus the uncategorized items is the total, without
            // counting a million index entries.
            let uncategorized = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item WHERE categoryId IS NULL") ?? 0
            let entries = try db.fetchAll(sql: "SELECT id, name, itemCount FROM category ORDER BY position") { columns in
                CategoryStats.Entry(id: columns.int64(0), name: columns.string(1), itemCount: columns.int(2), share: 0)
            }
            return CategoryStats(entries: entries, uncategorizedItemCount: uncategorized)
        }
    }

    public func exportCategories() async throws(CatalogError) -> [CategoryRecord] {
        try await allCategories().map(CategoryRecord.init)
    }

    // MARK: Writes

    public func createCategory(_ draft: CategoryDraft) async throws(CatalogError) -> Category {
        try await write { db in
            try Self.checkSlugFree(db, draft.name.slug, except: nil)
            let bound = try self.boundFilters(db)
            let count = try Self.categoryCount(db)
            let id = try Self.insertCategory(
                db, name: draft.name, color: draft.color ?? CategoryPalette.color(forPosition: count), icon: draft.icon,
                position: count, isDefault: false, now: Date())
            let created = try Self.fetchCategory(db, id: id)
            try self.syncCategoryFilters(db, bound, edits: CategoryMirror.created(created))
            return created
        }
    }

    public func updateCategory(id: Int64, _ changes: CategoryChanges, expectedRevision: Int64?)
        async throws(CatalogError)
        -> Category
    {
        try await write { db in
            let current = try Self.fetchCategory(db, id: id)
            try Self.checkRevision(current, expectedRevision)
            if let name = changes.name, name.slug != current.slug {
                try Self.checkSlugFree(db, name.slug, except: id)
            }
            let updated = changes.applied(to: current)
            guard updated != current else { return current }
            let bound = try self.boundFilters(db)
            try db.execute(
                sql: """
                    UPDATE category SET name = ?, slug = ?, color = ?, icon = ?, isDefault = ?,
                        revision = revision + 1, updatedAt = ?
                    WHERE id = ?
                    """,
                arguments: [updated.name, updated.slug, updated.color, updated.icon, updated.isDefault, Date(), id])
            try self.syncCategoryFilters(db, bound, edits: CategoryMirror.updated(from: current, to: updated))
            return try Self.fetchCategory(db, id: id)
        }
    }

    public func deleteCategory(_ request: CategoryDeletion) async throws(CatalogError) -> DeleteCategoryResponse {
        try await write(dryRun: request.dryRun) { db in
            let category = try Self.fetchCategory(db, id: request.id)
            try Self.checkRevision(category, request.expectedRevision)
            if category.isDefault { throw CatalogError.defaultCategory(id: category.id) }
            if try Self.categoryCount(db) <= 1 { throw CatalogError.lastCategory }
            let bound = try self.boundFilters(db)
            let now = Date()
            let bump = CatalogRevisionBump()
            var response = DeleteCategoryResponse(deletedItems: 0, movedItems: 0, unassignedItems: 0)
            switch request.items {
            case .reject:
                if category.itemCount > 0 { throw CatalogError.categoryNotEmpty(itemCount: category.itemCount) }
            case .delete:
                try db.execute(sql: "DELETE FROM item WHERE categoryId = ?", arguments: [category.id])
                response.deletedItems = db.changesCount
                if response.deletedItems > 0 { _ = try bump.revision(db) }
            case .unassign:
                response.unassignedItems = try Self.reassignItems(
                    db, from: category.id, holding: category.itemCount, to: nil, now: now, bump: bump)
            case .move:
                guard let moveTo = request.moveTo else { throw CatalogError.moveToRequired }
                if moveTo == category.id {
                    throw CatalogError.invalidField("moveTo", "must name another category than the one deleted")
                }
                _ = try Self.fetchCategory(db, id: moveTo)
                response.movedItems = try Self.reassignItems(
                    db, from: category.id, holding: category.itemCount, to: moveTo, now: now, bump: bump)
            }
            try db.execute(sql: "DELETE FROM category WHERE id = ?", arguments: [category.id])
            try db.execute(
                sql:
                    "UPDATE category SET position = position - 1, revision = revision + 1, updatedAt = ? WHERE position > ?",
                arguments: [now, category.position])
            try self.syncCategoryFilters(db, bound, edits: CategoryMirror.deleted(category))
            return response
        }
    }

    public func moveCategory(id: Int64, to target: MoveTarget, expectedRevision: Int64?) async throws(CatalogError) -> [Category] {
        try await write { db in
            let category = try Self.fetchCategory(db, id: id)
            try Self.checkRevision(category, expectedRevision)
            let count = try Self.categoryCount(db)
            let from = category.position
            let to = try target.destination(from: from, count: count)
            if to != from {
                let bound = try self.boundFilters(db)
                let now = Date()
                if to < from {
                    try db.execute(
                        sql: """
                            UPDATE category SET position = position + 1, revision = revision + 1, updatedAt = ?
                            WHERE position >= ? AND position < ?
                            """,
                        arguments: [now, to, from])
                } else {
                    try db.execute(
                        sql: """
                            UPDATE category SET position = position - 1, revision = revision + 1, updatedAt = ?
                            WHERE position > ? AND position <= ?
                            """,
                        arguments: [now, from, to])
                }
                try db.execute(
                    sql: "UPDATE category SET position = ?, revision = revision + 1, updatedAt = ? WHERE id = ?",
                    arguments: [to, now, id])
                try self.syncCategoryFilters(db, bound, edits: CategoryMirror.moved(category, to: to))
            }
            return try db.fetchAll(sql: "SELECT \(Self.categoryColumns) FROM category ORDER BY position", Self.category)
        }
    }

    public func mergeCategories(sourceIDs: [Int64], into targetID: Int64, dryRun: Bool) async throws(CatalogError)
        -> MergeCategoriesResponse
    {
        try await write(dryRun: dryRun) { db in
            var seen = Set<Int64>()
            let sources = sourceIDs.filter { seen.insert($0).inserted }
            if sources.isEmpty { throw CatalogError.invalidField("sourceIds", "must name at least one category") }
            var sourceCategories: [Category] = []
            for id in sources {
                sourceCategories.append(try Self.fetchCategory(db, id: id))
            }
            _ = try Self.fetchCategory(db, id: targetID)
            if sources.contains(targetID) {
                throw CatalogError.invalidField("sourceIds", "must not contain the target \(targetID)")
            }
            if let defaultSource = sourceCategories.first(where: \.isDefault) {
                throw CatalogError.defaultCategory(id: defaultSource.id)
            }
            let bound = try self.boundFilters(db)
            let now = Date()
            var moved = 0
            let bump = CatalogRevisionBump()
            for source in sourceCategories {
                moved += try Self.reassignItems(db, from: source.id, holding: source.itemCount, to: targetID, now: now, bump: bump)
                try db.execute(sql: "DELETE FROM category WHERE id = ?", arguments: [source.id])
            }
            try Self.compactPositions(db, now: now)
            try self.syncCategoryFilters(db, bound)
            return MergeCategoriesResponse(
                target: try Self.fetchCategory(db, id: targetID), movedItems: moved, deletedIds: sources)
        }
    }

    public func assignItems(_ itemIDs: [Int64], to categoryID: Int64?, dryRun: Bool) async throws(CatalogError) -> Int {
        try await write(dryRun: dryRun) { db in
            var seen = Set<Int64>()
            let ids = itemIDs.filter { seen.insert($0).inserted }
            var current: [(id: Int64, categoryID: Int64?)] = []
            for id in ids {
                guard let row = try Row.fetchOne(db, sql: "SELECT categoryId FROM item WHERE id = ?", arguments: [id])
                else {
                    throw CatalogError.notFound("item", id: id)
                }
                current.append((id, row["categoryId"]))
            }
            if let categoryID { _ = try Self.fetchCategory(db, id: categoryID) }
            let now = Date()
            let bump = CatalogRevisionBump()
            var changed = 0
            for item in current where item.categoryID != categoryID {
                try Self.setItemCategory(db, itemID: item.id, from: item.categoryID, to: categoryID, now: now, bump: bump)
                changed += 1
            }
            return changed
        }
    }

    public func moveItems(from: Int64, to: Int64) async throws(CatalogError) -> Int {
        try await write { db in
            let source = try Self.fetchCategory(db, id: from)
            _ = try Self.fetchCategory(db, id: to)
            if from == to { return 0 }
            return try Self.reassignItems(db, from: from, holding: source.itemCount, to: to, now: Date(), bump: CatalogRevisionBump())
        }
    }

    public func importCategories(_ records: [CategoryImport], mode: ImportMode, dryRun: Bool) async throws(CatalogError)
        -> ImportCategoriesResponse
    {
        try await write(dryRun: dryRun) { db in
            var slugs = Set<String>()
            for record in records where !slugs.insert(record.name.slug).inserted {
                throw CatalogError.invalidField("categories", "names \"\(record.name.name)\" more than once")
            }
            let bound = try self.boundFilters(db)
            let now = Date()
            var response = ImportCategoriesResponse(created: 0, updated: 0, unchanged: 0, deleted: 0)
            if mode == .replace {
                let doomed = try Row.fetchAll(db, sql: "SELECT id, slug, itemCount FROM category WHERE isDefault = 0")
                    .filter { !slugs.contains($0["slug"]) }
                    .map { (id: $0["id"] as Int64, itemCount: $0["itemCount"] as Int) }
                let bump = CatalogRevisionBump()
                for (id, itemCount) in doomed {
                    _ = try Self.reassignItems(db, from: id, holding: itemCount, to: nil, now: now, bump: bump)
                    try db.execute(sql: "DELETE FROM category WHERE id = ?", arguments: [id])
                }
                response.deleted = doomed.count
                try Self.compactPositions(db, now: now)
            }
            for record in records {
                if let existing = try db.fetchAll(
                    sql: "SELECT \(Self.categoryColumns) FROM category WHERE slug = ?", arguments: [record.name.slug],
                    Self.category
                ).first {
                    if existing.name == record.name.name && existing.color == record.color
                        && existing.icon == record.icon
                        && existing.isDefault == record.isDefault
                    {
                        response.unchanged += 1
                    } else {
                        try db.execute(
                            sql: """
                                UPDATE category SET name = ?, color = ?, icon = ?, isDefault = ?, revision = revision + 1,
                                    updatedAt = ?
                                WHERE id = ?
                                """,
                            arguments: [
                                record.name.name, record.color, record.icon, record.isDefault, now, existing.id,
                            ])
                        response.updated += 1
                    }
                } else {
                    _ = try Self.insertCategory(
                        db, name: record.name, color: record.color, icon: record.icon,
                        position: try Self.categoryCount(db), isDefault: record.isDefault, now: now)
                    response.created += 1
                }
            }
            if try Self.categoryCount(db) == 0 { throw CatalogError.lastCategory }
            try self.syncCategoryFilters(db, bound)
            return response
        }
    }

    // MARK: Helpers (inside a transaction)

    /// The columns `category(_:)` reads, in its order; queries select them.
    static let categoryColumns =
        "id, name, slug, color, icon, position, isDefault, itemCount, revision, createdAt, updatedAt"

    /// A category from a row of `categoryColumns` (read by position: no name lookups).
    static func category(_ columns: ColumnReader) -> Category {
        Category(
            id: columns.int64(0), name: columns.string(1), slug: columns.string(2), color: columns.string(3),
            icon: columns.optionalString(4), position: columns.int(5), isDefault: columns.bool(6),
            itemCount: columns.int(7), revision: columns.int64(8), createdAt: columns.date(9),
            updatedAt: columns.date(10))
    }

    static func fetchCategory(_ db: Database, id: Int64) throws -> Category {
        let sql = "SELECT \(categoryColumns) FROM category WHERE id = ?"
        guard let category = try db.fetchAll(sql: sql, arguments: [id], category).first else {
            throw CatalogError.notFound("category", id: id)
        }
        return category
    }

    /// How many categories there are: positions are dense, so the largest one plus one (an
    /// index lookup, where a count would read ten thousand entries).
    static func categoryCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT coalesce(max(position) + 1, 0) FROM category")) ?? 0
    }

    static func checkRevision(_ category: Category, _ expected: Int64?) throws {
        if let expected, expected != category.revision {
            throw CatalogError.revisionMismatch(expected: expected, actual: category.revision)
        }
    }

    static func checkSlugFree(_ db: Database, _ slug: String, except id: Int64?) throws {
        if let existing = try Int64.fetchOne(db, sql: "SELECT id FROM category WHERE slug = ?", arguments: [slug]),
            existing != id
        {
            throw CatalogError.duplicateName(existingID: existing)
        }
    }

    static func insertCategory(
        _ db: Database, name: CategoryName, color: String, icon: String?, position: Int, isDefault: Bool, now: Date
    ) throws -> Int64 {
        try db.execute(
            sql: """
                INSERT INTO category (name, slug, color, icon, position, isDefault, itemCount, revision, createdAt, updatedAt)
                VALUES (?, ?, ?, ?, ?, ?, 0, 1, ?, ?)
                """,
            arguments: [name.name, name.slug, color, icon, position, isDefault, now, now])
        return db.lastInsertedRowID
    }

    /// Moves every item of category `from` to `to` (`nil`: unassigned), keeping both counts; returns how many.
    /// `held` is the category's `itemCount` read in this transaction: kept exact by every write,
    /// it says whether anything moves, and so whether the write takes a catalog revision.
    static func reassignItems(
        _ db: Database, from: Int64, holding held: Int, to: Int64?, now: Date, bump: CatalogRevisionBump
    ) throws -> Int {
        guard held > 0 else { return 0 }
        try db.execute(
            sql: "UPDATE item SET categoryId = ?, updatedAt = ?, revision = ? WHERE categoryId = ?",
            arguments: [to, now, try bump.revision(db), from])
        let moved = db.changesCount
        if moved > 0 {
            try db.execute(sql: "UPDATE category SET itemCount = itemCount - ? WHERE id = ?", arguments: [moved, from])
            if let to {
                try db.execute(
                    sql: "UPDATE category SET itemCount = itemCount + ? WHERE id = ?", arguments: [moved, to])
            }
        }
        return moved
    }

    /// Sets one item's category, keeping the counts of the old and the new one.
    static func setItemCategory(
        _ db: Database, itemID: Int64, from: Int64?, to: Int64?, now: Date, bump: CatalogRevisionBump
    ) throws {
        try db.execute(
            sql: "UPDATE item SET categoryId = ?, updatedAt = ?, revision = ? WHERE id = ?",
            arguments: [to, now, try bump.revision(db), itemID])
        if let from {
            try db.execute(sql: "UPDATE category SET itemCount = itemCount - 1 WHERE id = ?", arguments: [from])
        }
        if let to {
            try db.execute(sql: "UPDATE category SET itemCount = itemCount + 1 WHERE id = ?", arguments: [to])
        }
    }

    /// Renumbers positions 0..n-1 in their current order; a category whose position changes gets a new revision.
    /// One statement: after a merge of a category of the middle, thousands of categories shift.
    static func compactPositions(_ db: Database, now: Date) throws {
        try db.execute(
            sql: """
                UPDATE category SET position = ranked.newPosition, revision = revision + 1, updatedAt = ?
                FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY position, id) - 1 AS newPosition FROM category) AS ranked
                WHERE category.id = ranked.id AND category.position != ranked.newPosition
                """,
            arguments: [now])
    }
}
