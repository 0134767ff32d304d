import CatalogAPI
import Foundation

extension ItemQuery {
    /// The search text as items' `searchText` holds it (folded), `nil` when there is none.
    package var foldedSearch: String? {
        search.map { Folding.folded($0.trimmingCharacters(in: .whitespacesAndNewlines)) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The filters (category, level, search), as a page token records them so that a token of
    /// another query is told apart.
    package var pageFilter: String {
        [categoryID.map { String($0) }, level, foldedSearch]
            .map { $0.map { "\($0.utf8.count):\($0)" } ?? "-" }
            .joined(separator: "|")
    }

    /// Where this query's page starts: `nil` for the first page; INVALID_ARGUMENT `pageToken`
    /// when the token is malformed or belongs to a different query.
    package func continuation() throws(CatalogError) -> PageToken? {
        guard let pageToken else { return nil }
        guard let decoded = PageToken(encoded: pageToken) else {
            throw CatalogError.invalidField("pageToken", "is not a page token")
        }
        guard decoded.sort == sort.rawValue, decoded.descending == descending, decoded.filter == pageFilter else {
            throw CatalogError.invalidField("pageToken", "belongs to a different query")
        }
        return decoded
    }
}

extension CategoryRecord {
    /// What an export holds of `category`.
    public init(_ category: Category) {
        self.init(
            name: category.name, color: category.color, icon: category.icon, position: category.position,
            isDefault: category.isDefault)
    }
}
