import CatalogAPI
import Synchronization

/// Every category in position order, kept from one read to the next while no category changes,
/// on this replica or another (see `CacheGeneration`). Categories.List answers all of them: at
/// 10 000, reading them from PostgreSQL would be most of the call.
final class CategoryCache: Sendable {
    let generation = CacheGeneration()
    private let kept = Mutex<(stamp: UInt64, categories: [Category])?>(nil)

    /// The kept categories, if they were read under `stamp`.
    func categories(at stamp: UInt64) -> [Category]? {
        kept.withLock { $0?.stamp == stamp ? $0?.categories : nil }
    }

    /// Keeps `categories`, read under `stamp`, unless it moved since.
    func keep(_ categories: [Category], readAt stamp: UInt64) {
        kept.withLock { kept in
            if generation.holds(stamp) { kept = (stamp, categories) }
        }
    }
}

/// Items read by id, kept while no item changes, on this replica or another (see
/// `CacheGeneration`): a GetItem of a kept item costs no round trip to PostgreSQL. At most
/// `capacity` items are kept.
final class ItemCache: Sendable {
    static let capacity = 10_000

    let generation = CacheGeneration()
    private let kept = Mutex<(stamp: UInt64, items: [Int64: Item])>((0, [:]))

    /// The kept item `id`, if it was read under `stamp`.
    func item(_ id: Int64, at stamp: UInt64) -> Item? {
        kept.withLock { $0.stamp == stamp ? $0.items[id] : nil }
    }

    /// Keeps `item`, read under `stamp`, unless it moved since; past `capacity`, an arbitrary
    /// kept item makes room.
    func keep(_ item: Item, readAt stamp: UInt64) {
        kept.withLock { kept in
            guard generation.holds(stamp) else { return }
            if kept.stamp != stamp { kept = (stamp, [:]) }
            if kept.items.count >= Self.capacity, kept.items[item.id] == nil { kept.items.remove(at: kept.items.startIndex) }
            kept.items[item.id] = item
        }
    }
}
