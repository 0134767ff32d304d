import Foundation

/// A file a command reads whole: a path, or `-` for standard input.
package struct InputFile: Sendable {
    /// The file's bytes.
    package let data: Data
    /// Its name in messages: the path, or `standard input`.
    package let name: String

    /// Reads `path` (`-`: standard input).
    ///
    /// - Throws: ``CLIFailure`` (usage) when the file cannot be read.
    package init(_ path: String) throws(CLIFailure) {
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
            name = "standard input"
            return
        }
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .usage("cannot read \(path): \(error.localizedDescription)")
        }
        name = path
    }
}
