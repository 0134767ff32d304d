import Foundation

/// The text normalizations the store searches and sorts with.
package enum Folding {
    /// Lower-cased, diacritics removed: what `item.searchText` and `item.titleKey` hold.
    package static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    }
}
