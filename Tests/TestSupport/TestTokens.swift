import Crypto
import Foundation
import RPCCore

/// Tokens as tests use them: one per role in clear, the hash a token file holds for a token,
/// whole token files, and the call options that present a token.
package enum TestTokens {
    /// One entry of a token file, with its token in clear.
    package typealias Entry = (name: String, role: String, token: String)

    package static let reader = "reader-secret"
    package static let writer = "writer-secret"
    package static let admin = "admin-secret"

    /// alice (reader), bob (writer), carol (admin).
    package static let oneOfEachRole: [Entry] = [("alice", "reader", reader), ("bob", "writer", writer), ("carol", "admin", admin)]

    /// Hex SHA-256 of `token`'s UTF-8, as a token file holds it.
    package static func sha256Hex(_ token: String) -> String {
        SHA256.hash(data: Array(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// A token file listing `tokens` (name, role, token in clear).
    package static func fileJSON(_ tokens: [Entry] = oneOfEachRole) -> String {
        let entries = tokens.map { #"{"name": "\#($0.name)", "role": "\#($0.role)", "sha256": "\#(sha256Hex($0.token))"}"# }
        return #"{"tokens": [\#(entries.joined(separator: ", "))]}"#
    }

    /// A fresh path for a token file in the temporary directory, not created.
    package static func freshFilePath() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("test-tokens-\(UUID().uuidString).json")
    }

    /// Writes `contents` to `url`, replacing what was there.
    package static func writeFile(_ contents: String, to url: URL) throws {
        try Data(contents.utf8).write(to: url, options: .atomic)
    }

    /// Call options carrying `token` as a bearer token.
    package static func options(_ token: String) -> CallOptions {
        var options = CallOptions()
        options.metadata.add("authorization", "Bearer \(token)")
        return options
    }
}
