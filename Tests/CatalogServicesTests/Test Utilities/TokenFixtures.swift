import CatalogAPI
import CatalogServices
import CatalogStore
import Foundation
import TestTokens

/// Token files for tests: the tokens in clear, and the file that lists their hashes.
enum TokenFixtures {
    /// The set a file listing `tokens` gives.
    static func tokenSet(_ tokens: [(name: String, role: String, token: String)]) throws -> TokenSet {
        try TokenFile.parse(Data(TestTokens.fileJSON(tokens).utf8), path: "test-tokens.json")
    }

    /// One token per role: `reader-secret`, `writer-secret`, `admin-secret`.
    static let oneOfEachRole: [(name: String, role: String, token: String)] = [
        ("alice", "reader", "reader-secret"), ("bob", "writer", "writer-secret"), ("carol", "admin", "admin-secret"),
    ]
}
