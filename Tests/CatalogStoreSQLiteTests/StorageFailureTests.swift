import CatalogAPI
import CatalogServer
import Foundation
import GRDB
import InMemoryLogging
import Logging
import Testing

@testable import CatalogStoreSQLite

@Suite("Failures of the storage itself")
struct StorageFailureTests {
    @Test(
        "a write on a full disk is RESOURCE_EXHAUSTED storageFull, logged with its cause, and loses no acknowledged write",
        .enabled(if: canMountFileSystems, "mounting a tmpfs needs root"))
    func fullDisk() async throws {
        try await withSmallFileSystem(bytes: 1 << 20) { directory in
            let log = InMemoryLogHandler()
            let store = try SQLiteCatalogStore(path: directory.appendingPathComponent("catalog.sqlite").path, logger: log.logger)
            let summary = String(repeating: "Une formation longue. ", count: 220)

            var acknowledged: [Int64] = []
            var failure: CatalogError?
            for index in 0..<1000 {
                do throws(CatalogError) {
                    acknowledged.append(try await store.createItem(ItemDraft(title: "Item \(index)", summary: summary)).id)
                } catch {
                    failure = error
                    break
                }
            }
            let error = try #require(failure, "1 MiB never filled up")
            #expect(error.rpcError.code == .resourceExhausted, "\(error)")
            #expect(error.reason == "storageFull")
            #expect(error.rpcError.message.contains("full"))

            let logged = try #require(log.entries.first { $0.level == .error }, "the failure was not logged")
            #expect(logged.metadata["cause"].map { "\($0)".contains("full") } == true, "\(logged)")

            let stored = try await store.database.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM item ORDER BY id") }
            #expect(stored == acknowledged)
        }
    }

    @Test(
        "a file system counts as full once less than fullBelowBytes are left",
        .enabled(if: canMountFileSystems, "mounting a tmpfs needs root"))
    func fileSystemSpace() async throws {
        try await withSmallFileSystem(bytes: 8 << 20) { directory in
            let filler = directory.appendingPathComponent("filler").path
            #expect(FileManager.default.createFile(atPath: filler, contents: nil))
            #expect(!FileSystemSpace.isFull(at: filler))

            let handle = try #require(FileHandle(forWritingAtPath: filler))
            defer { try? handle.close() }
            let chunk = Data(count: 64 << 10)
            var written = 0
            while (try? handle.write(contentsOf: chunk)) != nil, written < 16 << 20 { written += chunk.count }
            #expect(written <= 8 << 20, "the tmpfs took more than its size")
            #expect(FileSystemSpace.isFull(at: filler))
        }
    }
}
