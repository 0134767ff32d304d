import CatalogAPI
import CatalogServer
import Crypto
import Foundation

/// Token files for tests: the tokens in clear, and the file that lists their hashes.
enum TokenFixtures {
    /// Hex SHA-256 of `token`'s UTF-8, as a token file holds it.
    static func sha256Hex(_ token: String) -> String {
        SHA256.hash(data: Array(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// A token file listing `tokens` (name, role, token in clear).
    static func fileJSON(_ tokens: [(name: String, role: String, token: String)]) -> String {
        let entries = tokens.map { #"{"name": "\#($0.name)", "role": "\#($0.role)", "sha256": "\#(sha256Hex($0.token))"}"# }
        return #"{"tokens": [\#(entries.joined(separator: ", "))]}"#
    }

    /// The set a file listing `tokens` gives.
    static func tokenSet(_ tokens: [(name: String, role: String, token: String)]) throws -> TokenSet {
        try TokenFile.parse(Data(fileJSON(tokens).utf8), path: "test-tokens.json")
    }

    /// One token per role: `reader-secret`, `writer-secret`, `admin-secret`.
    static let oneOfEachRole: [(name: String, role: String, token: String)] = [
        ("alice", "reader", "reader-secret"), ("bob", "writer", "writer-secret"), ("carol", "admin", "admin-secret"),
    ]
}
