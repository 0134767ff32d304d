import Crypto
import Foundation

/// Token files as tests write them: the hash a file holds for a token, and a whole file.
public enum TestTokens {
    /// Hex SHA-256 of `token`'s UTF-8, as a token file holds it.
    public static func sha256Hex(_ token: String) -> String {
        SHA256.hash(data: Array(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// A token file listing `tokens` (name, role, token in clear).
    public static func fileJSON(_ tokens: [(name: String, role: String, token: String)]) -> String {
        let entries = tokens.map { #"{"name": "\#($0.name)", "role": "\#($0.role)", "sha256": "\#(sha256Hex($0.token))"}"# }
        return #"{"tokens": [\#(entries.joined(separator: ", "))]}"#
    }
}
