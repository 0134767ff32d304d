import Foundation

/// A temporary directory holding the SQLite file of a test's servers, removed with it: a
/// server started again on the same database sees what the previous one stored.
package final class TestDatabase: Sendable {
    package let directory: URL
    package var path: String { directory.appendingPathComponent("catalog.sqlite").path }

    package init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("catalog-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }
}
