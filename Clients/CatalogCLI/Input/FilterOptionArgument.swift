import CatalogKit

/// A filter option given to `filter define --option` as `ID:TITLE` or `ID:TITLE:ICON`.
package enum FilterOptionArgument {
    /// The option `text` describes.
    ///
    /// - Throws: ``CLIFailure`` (usage) when `text` is not `ID:TITLE[:ICON]` with an integer id.
    package static func parse(_ text: String) throws(CLIFailure) -> FilterOption {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, let id = Int64(parts[0]), !parts[1].isEmpty else {
            throw .usage("the option '\(text)' is not ID:TITLE or ID:TITLE:ICON, such as 1:Débutant")
        }
        return FilterOption(id: id, title: parts[1], icon: parts.count == 3 && !parts[2].isEmpty ? parts[2] : nil)
    }
}
