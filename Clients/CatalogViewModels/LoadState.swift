import CatalogKit

/// What a ``CategoryListModel`` shows: a placeholder, the list, an empty state or an error.
public enum LoadState: Sendable, Hashable {
    /// No list to show yet: the first load, or a load after a failure, is under way.
    case loading
    /// The categories, in the order asked for; never empty.
    case loaded([Category])
    /// The server has no category that matches the query (or none at all).
    case empty
    /// The last load failed with this error; ``CategoryListModel/load()`` tries again.
    case failed(RPCError)
}
