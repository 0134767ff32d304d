import Foundation

/// The package's own folder, for tests that read its committed files or run its scripts.
package enum PackageRoot {
    /// The nearest folder above `filePath` that holds `Package.swift`.
    package static func url(filePath: String = #filePath) throws -> URL {
        var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            let parent = folder.deletingLastPathComponent()
            guard parent.path != folder.path else { throw CocoaError(.fileNoSuchFile) }
            folder = parent
        }
        return folder
    }
}
