import CatalogServices
import CatalogStore
import Foundation
import RPCCore
import TestTokens

/// Tokens for tests that run the server with a `TokenAuthorizer`: one per role, in clear,
/// and the set a token file listing their hashes gives.
enum TokenFixtures {
    static let reader = "reader-secret"
    static let writer = "writer-secret"
    static let admin = "admin-secret"

    /// alice (reader), bob (writer), carol (admin), read through `TokenFile` as catalogd reads them.
    static func tokenSet() throws -> TokenSet {
        let file = TestTokens.fileJSON([("alice", "reader", reader), ("bob", "writer", writer), ("carol", "admin", admin)])
        return try TokenFile.parse(Data(file.utf8), path: "test-tokens.json")
    }

    /// Call options carrying `token`.
    static func options(_ token: String) -> CallOptions {
        var options = CallOptions()
        options.metadata.add("authorization", "Bearer \(token)")
        return options
    }
}
