import GRDB

/// The catalog revision of one write transaction: the revision after the last committed one,
/// taken at the write's first change to an item and shared by all its changes. A write that
/// changes no item takes none, so revisions grow by exactly one per write that changes items.
final class CatalogRevisionBump {
    private var taken: Int64?

    /// The write's revision, taken now if it has none yet.
    func revision(_ db: Database) throws -> Int64 {
        if let taken { return taken }
        guard let revision = try Int64.fetchOne(db, sql: "UPDATE catalog_revision SET revision = revision + 1 RETURNING revision")
        else { throw DatabaseError(message: "the catalog revision row is missing") }
        taken = revision
        return revision
    }

    /// The revision of the last committed write that changed items.
    static func current(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT revision FROM catalog_revision") ?? 1
    }
}
