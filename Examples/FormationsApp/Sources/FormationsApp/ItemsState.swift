import CatalogKit

/// What the formations list shows.
public enum ItemsState: Sendable, Hashable {
    /// The first page of the category chosen is on its way.
    case loading
    /// The formations of the category chosen (of all categories when none is).
    case loaded([Item])
    /// The category chosen has no formation.
    case empty
    /// The formations could not be listed.
    case failed(RPCError)
}
