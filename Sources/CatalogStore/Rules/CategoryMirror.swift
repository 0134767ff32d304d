import CatalogAPI

/// What a category write does to the options of the filters bound to the categories: option
/// id = category id, title = name, icon = icon, and an option's index is its category's
/// position. A write that knows what it changed hands these edits to the store's mirror, so
/// that keeping a bound filter costs the same at ten categories as at ten thousand.
package enum CategoryMirror {
    package static func option(_ category: Category) -> FilterOption {
        FilterOption(id: category.id, title: category.name, icon: category.icon)
    }

    /// `category`, just created at its position.
    package static func created(_ category: Category) -> [OptionEdit] {
        [.insert(option(category), at: category.position)]
    }

    /// `old` became `new`, in place (none when its name and icon stayed).
    package static func updated(from old: Category, to new: Category) -> [OptionEdit] {
        let from = option(old)
        let to = option(new)
        return from == to ? [] : [.update(from: from, to: to, at: old.position)]
    }

    /// `category` deleted from its position.
    package static func deleted(_ category: Category) -> [OptionEdit] {
        [.remove(option(category), at: category.position)]
    }

    /// `category` moved from its position to `position`.
    package static func moved(_ category: Category, to position: Int) -> [OptionEdit] {
        guard position != category.position else { return [] }
        return [.remove(option(category), at: category.position), .insert(option(category), at: position)]
    }
}
