import CatalogAPI
import GRDB
import Synchronization

/// Every category in position order, kept from one read to the next until a transaction that
/// changes the category table commits.
///
/// Categories.List answers every category: at 10 000 of them, reading and ordering the rows
/// in SQLite was most of the call. Reads are kept and served under `CommitGeneration`'s rules.
final class CategoryCache: Sendable {
    private let commits = CommitGeneration()
    private let kept = Mutex<(generation: UInt64, categories: [Category])?>(nil)

    /// The generation to pass to `categories(at:)` and `keep(_:readAt:)`; take it before the
    /// read's transaction begins.
    var generation: UInt64 { commits.current }

    /// The kept categories, if they are those of `generation`.
    func categories(at generation: UInt64) -> [Category]? {
        kept.withLock { kept in kept?.generation == generation ? kept?.categories : nil }
    }

    /// Keeps `categories`, read by a transaction begun at `generation`, unless a commit began since.
    func keep(_ categories: [Category], readAt generation: UInt64) {
        guard CommitGeneration.isStable(generation) else { return }
        kept.withLock { kept in
            if commits.current == generation { kept = (generation, categories) }
        }
    }

    /// Follows the commits of `database`'s writer.
    func observeChanges(of database: DatabasePool) {
        commits.follow(["category"], of: database)
    }
}
