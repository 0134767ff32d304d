import CatalogAPI

/// Point reads that answer without suspending: a lookup by primary key that takes
/// microseconds, such as an embedded database's with a cache in front.
///
/// The services run GetItem and Categories.Get inline whatever the store
/// (`ExecutionPolicy.inline`); through these, the handler is not `async`, so the call needs no
/// task at all. That is worth a protocol of its own only because these are the calls the
/// service answers most, and a task is a large share of such a call's CPU (compare builds with
/// `Benchmarks/cpu-per-call.sh`). Every other store method is plain `async`.
public protocol SynchronousPointReads: CatalogStore {
    /// `category(id:)`, answered at once.
    func categoryNow(id: Int64) throws(CatalogError) -> Category
    /// `item(id:)`, answered at once.
    func itemNow(id: Int64) throws(CatalogError) -> Item
}

extension SynchronousPointReads {
    public func category(id: Int64) async throws(CatalogError) -> Category {
        try categoryNow(id: id)
    }

    public func item(id: Int64) async throws(CatalogError) -> Item {
        try itemNow(id: id)
    }
}
