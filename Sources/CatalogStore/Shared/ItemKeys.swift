import CatalogAPI

/// The derived columns a store keeps beside an item, to search and sort by.
package enum ItemKeys {
    /// The folded title and summary, one per line: what a search looks in.
    package static func searchText(title: String, summary: String?) -> String {
        Folding.folded(title) + "\n" + Folding.folded(summary ?? "")
    }

    /// The price keys of an import's drafts, in order; the first draft whose price breaks the
    /// rule refuses the import with its `details.index`.
    package static func priceKeys(of drafts: [ItemDraft]) throws(CatalogError) -> [Int64?] {
        var keys: [Int64?] = []
        keys.reserveCapacity(drafts.count)
        for (index, draft) in drafts.enumerated() {
            do {
                keys.append(try priceKey(draft.price))
            } catch {
                throw error.atIndex(index)
            }
        }
        return keys
    }

    /// The price's sort key in hundredths, from the amount as `ItemRules` normalizes it
    /// (`"<digits>.<2 digits>"`); INVALID_ARGUMENT `price` when the amount breaks that rule.
    package static func priceKey(_ price: Money?) throws(CatalogError) -> Int64? {
        guard let price else { return nil }
        let normalized = try ItemRules.amount(price.amount, field: "price")
        return Int64(normalized.filter { $0 != "." })
    }
}
