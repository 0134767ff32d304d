import Crypto
import Foundation

/// Token files for catalogd runs: written to fresh temporary paths, holding the hashes of
/// tokens the test keeps in clear.
enum TokenFiles {
    /// Hex SHA-256 of `token`'s UTF-8, as a token file holds it.
    static func sha256Hex(_ token: String) -> String {
        SHA256.hash(data: Array(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// A token file listing `tokens` (name, role, token in clear).
    static func json(_ tokens: [(name: String, role: String, token: String)]) -> String {
        let entries = tokens.map { #"{"name": "\#($0.name)", "role": "\#($0.role)", "sha256": "\#(sha256Hex($0.token))"}"# }
        return #"{"tokens": [\#(entries.joined(separator: ", "))]}"#
    }

    /// A fresh path in the temporary directory, not created.
    static func freshPath() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("catalogd-tokens-\(UUID().uuidString).json")
    }

    /// Writes `contents` to `url`, replacing what was there.
    static func write(_ contents: String, to url: URL) throws {
        try Data(contents.utf8).write(to: url, options: .atomic)
    }
}
