import CatalogCLI
import CatalogKit

extension Session {
    /// The id of the category that `reference` (an id or a name) names; an id costs no call.
    func categoryID(_ reference: String, _ client: CatalogClient) async throws -> Int64 {
        try await CategoryReference(reference).id(using: client, options: callOptions)
    }

    /// The id of the category that `reference` names, when there is a reference.
    func categoryID(_ reference: String?, _ client: CatalogClient) async throws -> Int64? {
        guard let reference else { return nil }
        return try await CategoryReference(reference).id(using: client, options: callOptions)
    }

    /// The category that `reference` (an id or a name) names.
    func category(_ reference: String, _ client: CatalogClient) async throws -> Category {
        try await CategoryReference(reference).category(using: client, options: callOptions)
    }
}
