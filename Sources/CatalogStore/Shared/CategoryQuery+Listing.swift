import CatalogAPI
import Foundation

extension CategoryQuery {
    /// The categories this query selects, in its order, from all of them in position order.
    ///
    /// Names match as SQLite would match the slugs: a byte substring of the search's slug, and
    /// names sort by the bytes of their slugs.
    package func select(from categories: [Category]) -> [Category] {
        var selected = categories
        if let search = search.map({ CategoryRules.slug(for: $0.trimmingCharacters(in: .whitespacesAndNewlines)) }),
            !search.isEmpty
        {
            selected.removeAll { $0.slug.utf8.firstRange(of: search.utf8) == nil }
        }
        if hideEmpty {
            selected.removeAll { $0.itemCount == 0 }
        }
        let descending = descending
        switch sort {
        case .position:
            if descending { selected.reverse() }
        case .name:
            selected.sort { first, second in
                descending
                    ? second.slug.utf8.lexicographicallyPrecedes(first.slug.utf8)
                    : first.slug.utf8.lexicographicallyPrecedes(second.slug.utf8)
            }
        case .itemCount:
            selected.sort { first, second in
                if first.itemCount != second.itemCount {
                    return descending ? first.itemCount > second.itemCount : first.itemCount < second.itemCount
                }
                return first.position < second.position
            }
        case .createdAt:
            selected.sort { first, second in
                if first.createdAt != second.createdAt {
                    return descending ? first.createdAt > second.createdAt : first.createdAt < second.createdAt
                }
                return descending ? first.id > second.id : first.id < second.id
            }
        }
        return selected
    }
}
