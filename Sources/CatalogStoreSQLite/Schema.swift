import CatalogAPI
import CatalogStore
import Foundation
import GRDB

extension SQLiteCatalogStore {
    /// The schema's history. A migration is never edited once it has landed: add a new one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE category (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        name TEXT NOT NULL,
                        slug TEXT NOT NULL UNIQUE,
                        color TEXT NOT NULL,
                        icon TEXT,
                        position INTEGER NOT NULL CHECK (position >= 0),
                        isDefault BOOLEAN NOT NULL DEFAULT 0,
                        itemCount INTEGER NOT NULL DEFAULT 0 CHECK (itemCount >= 0),
                        revision INTEGER NOT NULL DEFAULT 1,
                        createdAt DATETIME NOT NULL,
                        updatedAt DATETIME NOT NULL
                    );
                    CREATE INDEX category_position ON category(position);

                    CREATE TABLE item (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        title TEXT NOT NULL,
                        summary TEXT,
                        level TEXT,
                        duration TEXT,
                        priceAmount TEXT,
                        priceCurrency TEXT,
                        priceMinorUnits INTEGER,
                        imageURL TEXT,
                        categoryId INTEGER REFERENCES category(id),
                        titleKey TEXT NOT NULL,
                        searchText TEXT NOT NULL,
                        createdAt DATETIME NOT NULL,
                        updatedAt DATETIME NOT NULL
                    );
                    CREATE INDEX item_category_createdAt ON item(categoryId, createdAt, id);
                    CREATE INDEX item_category_title ON item(categoryId, titleKey, id);
                    CREATE INDEX item_category_price ON item(categoryId, priceMinorUnits, id);
                    CREATE INDEX item_createdAt ON item(createdAt, id);
                    CREATE INDEX item_title ON item(titleKey, id);
                    CREATE INDEX item_price ON item(priceMinorUnits, id);
                    """)
            // The default categories, with the palette colours at their positions (literal here:
            // a migration must not change when the code around it does).
            let now = Date()
            let defaults: [(String, String, String, String)] = [
                ("Family", "family", "#E91E63", "house"),
                ("Cars", "cars", "#F44336", "car"),
                ("Games", "games", "#9C27B0", "gamecontroller"),
                ("Sports", "sports", "#4CAF50", "sportscourt"),
            ]
            for (position, (name, slug, color, icon)) in defaults.enumerated() {
                try db.execute(
                    sql: """
                        INSERT INTO category (name, slug, color, icon, position, isDefault, itemCount, revision, createdAt, updatedAt)
                        VALUES (?, ?, ?, ?, ?, 1, 0, 1, ?, ?)
                        """,
                    arguments: [name, slug, color, icon, position, now, now])
            }
        }
        migrator.registerMigration("v2") { db in
            // A filter's states are its changes; `filter` says which one is current. A deleted
            // filter keeps its row so its revision stays reserved. `options` is a JSON array of
            // `FilterOption`, NULL when equal to the previous change's (the oldest retained change
            // always has them; `optionsRevision` names the change holding the current ones), so a
            // selection of a filter with thousands of options writes a few bytes. `updatedAt` is
            // in milliseconds since 1970, so a state reads back exactly as written.
            try db.execute(
                sql: """
                    CREATE TABLE filter (
                        id TEXT PRIMARY KEY,
                        revision INTEGER NOT NULL CHECK (revision >= 1),
                        optionsRevision INTEGER NOT NULL,
                        deleted BOOLEAN NOT NULL DEFAULT 0
                    );

                    CREATE TABLE filter_change (
                        filterId TEXT NOT NULL REFERENCES filter(id),
                        revision INTEGER NOT NULL,
                        title TEXT NOT NULL,
                        source TEXT,
                        options TEXT,
                        selectedId INTEGER,
                        presentation TEXT NOT NULL CHECK (presentation IN ('expanded', 'collapsed')),
                        updatedAt INTEGER NOT NULL,
                        PRIMARY KEY (filterId, revision)
                    );
                    """)
            // The built-in filter, mirroring the categories (literal here, like v1's defaults).
            let now = Int64((Date().timeIntervalSince1970 * 1000).rounded())
            try db.execute(
                sql: """
                    INSERT INTO filter (id, revision, optionsRevision, deleted) VALUES ('categories', 1, 1, 0);
                    INSERT INTO filter_change (filterId, revision, title, source, options, selectedId, presentation, updatedAt)
                    SELECT 'categories', 1, 'Categories', 'categories',
                        json_group_array(json_object('id', id, 'title', name, 'icon', icon)), NULL, 'expanded', ?
                    FROM (SELECT id, name, icon FROM category ORDER BY position);
                    """,
                arguments: [now])
        }
        migrator.registerMigration("v3") { db in
            // `filter_change` is kept in the b-tree of its primary key: appending a change then
            // writes one page instead of two (the table's and its key index's), so a Select
            // puts fewer pages in the WAL. Same columns, same rows.
            try db.execute(
                sql: """
                    CREATE TABLE filter_change_clustered (
                        filterId TEXT NOT NULL REFERENCES filter(id),
                        revision INTEGER NOT NULL,
                        title TEXT NOT NULL,
                        source TEXT,
                        options TEXT,
                        selectedId INTEGER,
                        presentation TEXT NOT NULL CHECK (presentation IN ('expanded', 'collapsed')),
                        updatedAt INTEGER NOT NULL,
                        PRIMARY KEY (filterId, revision)
                    ) WITHOUT ROWID;

                    INSERT INTO filter_change_clustered
                    SELECT filterId, revision, title, source, options, selectedId, presentation, updatedAt
                    FROM filter_change;

                    DROP TABLE filter_change;
                    ALTER TABLE filter_change_clustered RENAME TO filter_change;
                    """)
        }
        migrator.registerMigration("v4") { db in
            try convertHistoryToSteps(db)
        }
        migrator.registerMigration("v5") { db in
            // The catalog revision (one row), and each item's revision of its last change.
            try db.execute(
                sql: """
                    CREATE TABLE catalog_revision (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        revision INTEGER NOT NULL CHECK (revision >= 1)
                    );
                    INSERT INTO catalog_revision (id, revision) VALUES (1, 1);
                    ALTER TABLE item ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;
                    """)
        }
        return migrator
    }

    /// Migration "v4": a filter's history becomes steps (`FilterStep`) instead of states. The
    /// current options of a filter with explicit options move to `filter.options` (NULL for a
    /// filter bound to the categories: the categories are its options); each change becomes a
    /// row of `filter_step` whose `edits` (a JSON array of `OptionEdit`, NULL when the options
    /// did not change) turn the options before it into the options after it. The oldest
    /// retained change's edits insert all its options, and it is marked `creates`: no state
    /// before it is ever rebuilt.
    private static func convertHistoryToSteps(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE filter ADD COLUMN options TEXT;
                CREATE TABLE filter_step (
                    filterId TEXT NOT NULL REFERENCES filter(id),
                    revision INTEGER NOT NULL,
                    title TEXT NOT NULL,
                    source TEXT,
                    edits TEXT,
                    selectedId INTEGER,
                    presentation TEXT NOT NULL CHECK (presentation IN ('expanded', 'collapsed')),
                    updatedAt INTEGER NOT NULL,
                    creates BOOLEAN NOT NULL,
                    PRIMARY KEY (filterId, revision)
                ) WITHOUT ROWID;
                """)
        let insert = try db.makeStatement(
            sql: """
                INSERT INTO filter_step (filterId, revision, title, source, edits, selectedId, presentation, updatedAt, creates)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        for id in try String.fetchAll(db, sql: "SELECT id FROM filter WHERE deleted = 0") {
            var options: [FilterOption] = []
            var source: String?
            var first = true
            let changes = try Row.fetchCursor(
                db,
                sql: """
                    SELECT revision, title, source, options, selectedId, presentation, updatedAt
                    FROM filter_change WHERE filterId = ? ORDER BY revision
                    """,
                arguments: [id])
            while let change = try changes.next() {
                var edits: String?
                if let json: String = change["options"] {
                    let next = try JSONDecoder().decode([FilterOption].self, from: Data(json.utf8))
                    edits = try StoredFilter.encodeEdits(OptionEdits.between(options, next))
                    options = next
                }
                source = change["source"]
                try insert.execute(arguments: [
                    id, change["revision"], change["title"], source, edits, change["selectedId"], change["presentation"],
                    change["updatedAt"], first,
                ])
                first = false
            }
            let current = source == "categories" ? nil : try StoredFilter.encodeOptions(options)
            try db.execute(sql: "UPDATE filter SET options = ? WHERE id = ?", arguments: [current, id])
        }
        try db.execute(
            sql: """
                DROP TABLE filter_change;
                ALTER TABLE filter DROP COLUMN optionsRevision;
                """)
    }
}
