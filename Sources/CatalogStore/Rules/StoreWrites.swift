import CatalogAPI

/// The parts of a store's writes that depend only on what the store read: how a change applies
/// to a row, where a move lands, what the counts add up to.
extension CategoryChanges {
    /// `category` with these changes (the store checks a new name's slug first).
    public func applied(to category: Category) -> Category {
        var updated = category
        if let name {
            updated.name = name.name
            updated.slug = name.slug
        }
        if let color { updated.color = color }
        updated.icon = icon.applied(to: category.icon)
        if let isDefault { updated.isDefault = isDefault }
        return updated
    }
}

extension ItemChanges {
    /// `item` with these changes (the store checks that a category set here exists first).
    public func applied(to item: Item) -> Item {
        var updated = item
        if let title { updated.title = title }
        updated.summary = summary.applied(to: item.summary)
        updated.level = level.applied(to: item.level)
        updated.duration = duration.applied(to: item.duration)
        updated.price = price.applied(to: item.price)
        updated.imageURL = imageURL.applied(to: item.imageURL)
        updated.categoryId = categoryID.applied(to: item.categoryId)
        return updated
    }
}

extension MoveTarget {
    /// The position a category at `position` moves to among `count`: FAILED_PRECONDITION
    /// `alreadyFirst` or `alreadyLast` for a step off either end, INVALID_ARGUMENT
    /// `toPosition` outside 0..<count.
    public func destination(from position: Int, count: Int) throws(CatalogError) -> Int {
        switch self {
        case .step(.up):
            if position == 0 { throw .alreadyFirst }
            return position - 1
        case .step(.down):
            if position == count - 1 { throw .alreadyLast }
            return position + 1
        case .position(let target):
            guard (0..<count).contains(target) else { throw .invalidField("toPosition", "must be in 0...\(count - 1)") }
            return target
        }
    }
}

extension CategoryStats {
    /// The statistics of `entries` (each category's exact count, in position order, shares
    /// unset) and the items without a category.
    public init(entries: [Entry], uncategorizedItemCount: Int) {
        let itemCount = uncategorizedItemCount + entries.reduce(0) { $0 + $1.itemCount }
        var shared = entries
        if itemCount > 0 {
            for index in shared.indices {
                shared[index].share = Double(shared[index].itemCount) / Double(itemCount)
            }
        }
        self.init(
            categoryCount: shared.count, itemCount: itemCount, uncategorizedItemCount: uncategorizedItemCount,
            emptyCategoryCount: shared.filter { $0.itemCount == 0 }.count, categories: shared)
    }
}
