import Foundation

/// Token files for catalogd runs, written to fresh temporary paths (their contents: `TestTokens`).
enum TokenFiles {
    /// A fresh path in the temporary directory, not created.
    static func freshPath() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("catalogd-tokens-\(UUID().uuidString).json")
    }

    /// Writes `contents` to `url`, replacing what was there.
    static func write(_ contents: String, to url: URL) throws {
        try Data(contents.utf8).write(to: url, options: .atomic)
    }
}
