import Foundation

/// The text normalizations the store searches and sorts with.
enum Folding {
    /// Lower-cased, diacritics removed: what `item.searchText` and `item.titleKey` hold.
    static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    }
}
