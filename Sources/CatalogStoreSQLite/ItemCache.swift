import CatalogAPI
import GRDB
import Synchronization

/// Items read by id, kept from one read to the next until a transaction that changes the item
/// table commits: a GetItem of a popular item then costs no SQLite read (whose file locks,
/// five system calls, were the largest part of the call). Reads are kept and served under
/// `CommitGeneration`'s rules; at most `capacity` items are kept.
final class ItemCache: Sendable {
    static let capacity = 10_000

    private let commits = CommitGeneration()
    private let kept = Mutex<(generation: UInt64, items: [Int64: Item])>((0, [:]))

    /// The generation to pass to `item(_:at:)` and `keep(_:readAt:)`; take it before the read.
    var generation: UInt64 { commits.current }

    /// The kept item `id`, if it is that of `generation`.
    func item(_ id: Int64, at generation: UInt64) -> Item? {
        kept.withLock { kept in kept.generation == generation ? kept.items[id] : nil }
    }

    /// Keeps `item`, read at `generation`, unless a commit began since; past `capacity`, an
    /// arbitrary kept item makes room.
    func keep(_ item: Item, readAt generation: UInt64) {
        guard CommitGeneration.isStable(generation) else { return }
        kept.withLock { kept in
            guard commits.current == generation else { return }
            if kept.generation != generation { kept = (generation, [:]) }
            if kept.items.count >= Self.capacity, kept.items[item.id] == nil { kept.items.remove(at: kept.items.startIndex) }
            kept.items[item.id] = item
        }
    }

    /// Follows the commits of `database`'s writer.
    func observeChanges(of database: DatabasePool) {
        commits.follow(["item"], of: database)
    }
}
