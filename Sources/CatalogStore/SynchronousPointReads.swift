import CatalogAPI

/// Point reads that answer without suspending: a lookup by primary key that takes
/// microseconds, such as an embedded database's with a cache in front. The services answer
/// GetItem and Categories.Get of such a store inline, on the connection's event loop; the
/// point reads of any other store run in a task, like every other call.
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
