import CatalogStore
import CatalogStoreSQLite
import Foundation
import Testing
import TestSupport

/// A store as the services see it.
typealias TestStore = any CatalogStore & FilterStore

/// Every kind of store the server runs on: each conformance test runs against each, through
/// the store protocols only, so that every kind keeps every rule of the contract.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite

    var testDescription: String { rawValue }

    /// A fresh store of this kind, holding what a new catalog starts with (the default
    /// categories and the built-in `categories` filter).
    func makeStore() async throws -> TestStore {
        switch self {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("catalog-conformance-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return try SQLiteCatalogStore(path: directory.appendingPathComponent("catalog.sqlite").path, logger: quietLogger())
        }
    }
}
