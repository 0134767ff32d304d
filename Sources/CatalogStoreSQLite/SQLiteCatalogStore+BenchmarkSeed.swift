import CatalogAPI
import CatalogStore
import Foundation
import GRDB

extension SQLiteCatalogStore: BenchmarkSeeding {
    /// Fills an empty store (no item, only the migration's default categories) with `categories`
    /// categories in all and `items` items: `largeCategoryItems` of them in one (non-default)
    /// category, the rest spread evenly over the others. One write transaction with prepared
    /// statements; positions stay dense, `itemCount` is exact, `titleKey`, `searchText` and
    /// `priceMinorUnits` are filled as `createItem` fills them, and the filters bound to the
    /// categories mirror them. For load tests, not for production data.
    ///
    /// INVALID_ARGUMENT `invalidField("seed", …)` when the store is not empty or the
    /// numbers do not fit.
    @discardableResult
    public func seedForBenchmark(categories: Int, items: Int, largeCategoryItems: Int) async throws(CatalogError)
        -> BenchmarkSeedSummary
    {
        await writerGate.admit()
        defer { writerGate.jobEnded() }
        do {
            return try await database.writeWithoutTransaction { db in
                // A big page cache while seeding: the item indexes are not filled in their key order.
                try db.execute(sql: "PRAGMA cache_size = -524288")  // 512 MiB
                defer { try? db.execute(sql: "PRAGMA cache_size = -2000") }  // SQLite's default
                var summary: BenchmarkSeedSummary?
                try db.inTransaction {
                    let bound = try self.boundFilters(db)
                    summary = try Self.seed(db, categories: categories, items: items, large: largeCategoryItems)
                    try self.syncCategoryFilters(db, bound)
                    return .commit
                }
                // Copy the seed into the database file now, not while the benchmark measures (after
                // the background checkpoint that the commit may have started).
                try self.checkpointer.checkpoint(db)
                guard let summary else { throw CatalogError.storage("benchmark seed produced no result") }
                return summary
            }
        } catch {
            throw storeError(error)
        }
    }

    private static func seed(_ db: Database, categories: Int, items: Int, large: Int) throws -> BenchmarkSeedSummary {
        let existingItems = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? 0
        let nonDefault = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM category WHERE isDefault = 0") ?? 0
        guard existingItems == 0, nonDefault == 0 else {
            throw CatalogError.invalidField(
                "seed",
                "the store is not empty (\(existingItems) items, \(nonDefault) non-default categories): seed a new database")
        }
        let existing = try Int64.fetchAll(db, sql: "SELECT id FROM category ORDER BY position")
        guard categories > existing.count, categories >= 2 else {
            throw CatalogError.invalidField("seed", "needs more than \(existing.count) categories (the defaults)")
        }
        guard items >= 0, large >= 0, large <= items else {
            throw CatalogError.invalidField("seed", "needs 0 <= largeCategoryItems <= items")
        }
        let now = Date()
        // Categories: the defaults keep positions 0..<k; new ones follow, densely.
        var categoryIDs = existing
        let insertCategory = try db.makeStatement(
            sql: """
                INSERT INTO category (name, slug, color, icon, position, isDefault, itemCount, revision, createdAt, updatedAt)
                VALUES (?, ?, ?, NULL, ?, 0, 0, 1, ?, ?)
                """)
        for position in existing.count..<categories {
            let name = String(format: "Bench %05d", position)
            try insertCategory.execute(arguments: [
                name, CategoryRules.slug(for: name), CategoryPalette.color(forPosition: position), position, now, now,
            ])
            categoryIDs.append(db.lastInsertedRowID)
        }
        let largeID = categoryIDs[existing.count]
        let others = categoryIDs.filter { $0 != largeID }
        var counts: [Int64: Int] = [:]

        // Items grouped by category, createdAt rising with the id: the (categoryId, createdAt, id)
        // and (createdAt, id) indexes grow at their ends.
        let insertItem = try db.makeStatement(
            sql: """
                INSERT INTO item (title, summary, level, duration, priceAmount, priceCurrency, priceMinorUnits, imageURL,
                    categoryId, titleKey, searchText, createdAt, updatedAt)
                VALUES (?, ?, ?, ?, ?, 'EUR', ?, NULL, ?, ?, ?, ?, ?)
                """)
        let levels = ["beginner", "intermediate", "advanced"]
        let words = ["Café", "Économie", "Python", "Swift", "Gestion", "Réseaux", "Données", "Sécurité"]
        var serial = 0
        func insert(categoryID: Int64) throws {
            serial += 1
            let word = words[serial % words.count]
            let title = "\(word) \(serial)"
            let summary = "Formation \(word.lowercased()) numéro \(serial)"
            let cents = Int64((serial &* 7919) % 200_000)
            let amount = "\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)"
            let created = now.addingTimeInterval(Double(serial) / 1000 - Double(items) / 1000)
            try insertItem.execute(arguments: [
                title, summary, levels[serial % levels.count], "\(1 + serial % 40)h", amount, cents, categoryID,
                Folding.folded(title), ItemKeys.searchText(title: title, summary: summary), created, created,
            ])
        }
        for _ in 0..<large { try insert(categoryID: largeID) }
        counts[largeID] = large
        let rest = items - large
        if !others.isEmpty {
            for (index, id) in others.enumerated() {
                let share = rest / others.count + (index < rest % others.count ? 1 : 0)
                for _ in 0..<share { try insert(categoryID: id) }
                counts[id] = share
            }
        }
        let setCount = try db.makeStatement(sql: "UPDATE category SET itemCount = ? WHERE id = ?")
        for (id, count) in counts where count > 0 {
            try setCount.execute(arguments: [count, id])
        }
        return BenchmarkSeedSummary(
            categoryCount: categoryIDs.count, itemCount: serial, largeCategoryID: largeID,
            middleCategoryID: categoryIDs[categoryIDs.count / 2], otherCategoryID: others[others.count - 1])
    }
}
