import CatalogKit
import Foundation

/// A category as the command line names it: by id (`3`) or by name (`"IA Générative"`,
/// case-insensitive, or its slug `ia_générative`). A name made only of digits is read as an id.
///
/// ```swift
/// let id = try await CategoryReference("Cars").id(using: client, options: options)
/// ```
package struct CategoryReference: Hashable, Sendable, CustomStringConvertible {
    /// The text as given.
    package let text: String

    package init(_ text: String) { self.text = text }

    /// The id, when the text is one.
    package var literalID: Int64? { Int64(text) }

    package var description: String { text }

    /// The category's id: the text itself when it is an id (no call), else looked up by name.
    ///
    /// - Throws: `RPCError` NOT_FOUND, reason `unknownCategoryName`, when no category has the name.
    package func id(using client: CatalogClient, options: CallOptions) async throws -> Int64 {
        if let literalID { return literalID }
        return try await category(using: client, options: options).id
    }

    /// The category, fetched by id or found by name.
    ///
    /// - Throws: `RPCError` NOT_FOUND when there is no such category.
    package func category(using client: CatalogClient, options: CallOptions) async throws -> Category {
        if let literalID { return try await client.categories.get(id: literalID, options: options) }
        let wanted = text.trimmingCharacters(in: .whitespaces).lowercased()
        let candidates = try await client.categories.list(options: options)
        guard let match = candidates.first(where: { $0.name.lowercased() == wanted || $0.slug == wanted }) else {
            throw RPCError(
                .notFound, "no category is named '\(text)'",
                detail: ErrorDetail(reason: "unknownCategoryName", details: ["name": .string(text)]))
        }
        return match
    }
}
