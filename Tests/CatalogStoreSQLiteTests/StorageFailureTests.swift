import CatalogAPI
import CatalogStore
import Foundation
import GRDB
import InMemoryLogging
import Logging
import Testing

@testable import CatalogStoreSQLite

@Suite("Failures of the storage itself")
struct StorageFailureTests {
    @Test("a failure the store does not know keeps it as its cause, behind the message the client sees")
    func unknownFailureKeepsItsCause() {
        struct Unexpected: Error, Equatable { var detail = "disk controller gone" }
        let log = InMemoryLogHandler()
        let error = SQLiteCatalogStore.storeError(Unexpected(), path: "/nowhere/catalog.sqlite", logger: log.logger)
        #expect(error.rpcError.code == .internalError)
        #expect(error.reason == "storage")
        #expect(!error.rpcError.message.contains("disk controller gone"), "the cause is not for the client")
        #expect(error.rpcError.cause as? Unexpected == Unexpected())
        #expect(error.description.contains("disk controller gone"))
    }

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
            let cause = try #require(error.rpcError.cause as? DatabaseError, "the store's error lost its cause")
            #expect(cause.resultCode == .SQLITE_FULL || cause.resultCode == .SQLITE_IOERR, "\(cause)")

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

    /// How a test takes the database file away from a running store.
    enum FileLoss: String, CaseIterable, Sendable {
        case deleted, renamed, replacedByACopy

        func apply(to path: String) throws {
            let files = FileManager.default
            switch self {
            case .deleted:
                try files.removeItem(atPath: path)
            case .renamed:
                try files.moveItem(atPath: path, toPath: path + ".moved")
            case .replacedByACopy:
                try files.copyItem(atPath: path, toPath: path + ".copy")
                try files.removeItem(atPath: path)
                try files.moveItem(atPath: path + ".copy", toPath: path)
            }
        }
    }

    @Test(
        "once the database file is gone, every write is UNAVAILABLE databaseMoved, logged once, and reads go on",
        arguments: FileLoss.allCases)
    func databaseFileGone(_ loss: FileLoss) async throws {
        let log = InMemoryLogHandler()
        let store = try makeStore(logger: log.logger)
        let acknowledged = try await store.createItem(ItemDraft(title: "acknowledged"))
        _ = try await snapshot(store)  // a reader connection opened, as on a server that served reads
        try loss.apply(to: store.database.path)

        let refused = try await expectFailure(store, "databaseMoved") { () async throws(CatalogError) in
            try await store.createItem(ItemDraft(title: "refused"))
        }
        #expect(refused?.rpcError.code == .unavailable)
        // A filter update, written on its caller (the writer is idle), is refused alike.
        await #expect(throws: CatalogError.databaseMoved) {
            try await store.updateFilter(FilterRules.builtinFilterID, .togglePresentation)
        }
        let errors = log.entries.filter { $0.level == .error }
        #expect(errors.count == 1, "\(errors)")

        #expect(try store.itemNow(id: acknowledged.id).title == "acknowledged")
        let listed = try await store.listItems(ItemQuery(pageSize: 50))
        #expect(listed.items.map(\.title) == ["acknowledged"])
    }
}
