import CatalogServer
import Crypto
import Foundation
import RPCCore

/// Tokens for tests that run the server with a `TokenAuthorizer`: one per role, in clear,
/// and the set a token file listing their hashes gives.
enum TokenFixtures {
    static let reader = "reader-secret"
    static let writer = "writer-secret"
    static let admin = "admin-secret"

    /// alice (reader), bob (writer), carol (admin), read through `TokenFile` as catalogd reads them.
    static func tokenSet() throws -> TokenSet {
        let entries = [("alice", "reader", reader), ("bob", "writer", writer), ("carol", "admin", admin)].map { name, role, token in
            #"{"name": "\#(name)", "role": "\#(role)", "sha256": "\#(sha256Hex(token))"}"#
        }
        return try TokenFile.parse(Data(#"{"tokens": [\#(entries.joined(separator: ", "))]}"#.utf8), path: "test-tokens.json")
    }

    /// Hex SHA-256 of `token`'s UTF-8, as a token file holds it.
    static func sha256Hex(_ token: String) -> String {
        SHA256.hash(data: Array(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Call options carrying `token`.
    static func options(_ token: String) -> CallOptions {
        var options = CallOptions()
        options.metadata.add("authorization", "Bearer \(token)")
        return options
    }
}
