import CatalogAPI
import CatalogStore
import Foundation
import PostgresTestSupport
import Synchronization
import TestSupport
import Testing

@testable import CatalogStorePostgres

/// Two stores on one database, as two replicas would hold them: each tells its observer about
/// the other's changes, in order, without a gap.
@Suite("PostgreSQL stores sharing a database", .serialized, .timeLimit(.minutes(2)))
struct SharedDatabaseTests {
    /// Every revision an observer was told, by filter.
    final class Told: Sendable {
        private let revisions = Mutex<[String: [Int64]]>([:])

        func observe(_ store: PostgresCatalogStore) {
            store.observeFilterChanges { change in
                if case .updated(let state, _) = change { self.revisions.withLock { $0[state.filterId, default: []].append(state.revision) } }
            }
        }

        func of(_ filterID: String) -> [Int64] { revisions.withLock { $0[filterID] ?? [] } }
    }

    /// Runs `body` with two stores on a fresh database of the shared cluster.
    static func withTwoStores(_ body: (PostgresCluster, PostgresCatalogStore, PostgresCatalogStore) async throws -> Void) async throws {
        let cluster = try PostgresCluster.shared()
        let database = "shared_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
        try cluster.createDatabase(database)
        defer { try? cluster.dropDatabase(database) }
        let location = try PostgresLocation(url: cluster.url(database: database))
        var settings = PostgresCatalogStore.Settings()
        settings.maxReconnectDelay = .milliseconds(100)
        try await PostgresCatalogStore.withStore(at: location, settings: settings, logger: quietLogger()) { first in
            try await PostgresCatalogStore.withStore(at: location, settings: settings, logger: quietLogger()) { second in
                try await body(cluster, first, second)
            }
        }
    }

    @Test("writers on both stores to one filter take every revision once; each observer is told all of them in order")
    func concurrentWriters() async throws {
        try await Self.withTwoStores { _, first, second in
            let start = try await first.filterHistory(filterID: "categories", limit: 1)[0].revision
            let told = (Told(), Told())
            told.0.observe(first)
            told.1.observe(second)
            let options: [Int64] = try await first.listCategories(CategoryQuery()).map(\.id)
            let written = try await withThrowingTaskGroup(of: [Int64].self) { group in
                for store in [first, second] {
                    group.addTask {
                        var revisions: [Int64] = []
                        for step in 0..<25 {
                            let state = try await store.updateFilter("categories", .select(optionID: options[step % options.count], toggle: true))
                            revisions.append(state.revision)
                        }
                        return revisions
                    }
                }
                return try await group.reduce(into: [Int64]()) { $0 += $1 }
            }
            let final = try #require(written.max())
            #expect(Set(written).count == written.count, "no revision was handed out twice")
            for observer in [told.0, told.1] {
                try await eventually("both observers told revision \(final)") { observer.of("categories").last == final }
                #expect(observer.of("categories") == Array((start + 1)...final))
            }
        }
    }

    @Test("categories and items changed through one store are read so by the other once the notice arrives")
    func readCaches() async throws {
        try await Self.withTwoStores { _, first, second in
            #expect(try await second.listCategories(CategoryQuery()).count == 4)  // now kept by the second store
            let books = try await first.createCategory(CategoryDraft(name: CategoryRules.name("Books")))
            try await eventually("the second store to list the new category") {
                try await second.listCategories(CategoryQuery()).contains(books)
            }
            let item = try await first.createItem(ItemDraft(title: "Dune"))
            #expect(try await second.item(id: item.id) == item)  // now kept by the second store
            let renamed = try await first.updateItem(id: item.id, ItemChanges(title: "Dune Messiah", categoryID: .set(books.id)))
            try await eventually("the second store to read the renamed item") { try await second.item(id: item.id) == renamed }
            try await eventually("the second store to count it") { try await second.category(id: books.id).itemCount == 1 }
        }
    }

    @Test("a store whose listening connection is terminated tells every change made meanwhile")
    func listenerTerminated() async throws {
        try await Self.withTwoStores { cluster, first, second in
            let told = Told()
            told.observe(second)
            let start = try await first.defineFilter(
                FilterDefinition(filterID: "shared", title: "Shared", content: .options([FilterOption(id: 1, title: "One"), FilterOption(id: 2, title: "Two")])))
            var last = start
            for round in 0..<4 {
                let database = first.location.database
                _ = try cluster.psql(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)' AND query LIKE 'LISTEN%'",
                    database: database)
                for step in 0..<8 { last = try await first.updateFilter("shared", .select(optionID: Int64((round + step) % 2) + 1, toggle: false)) }
            }
            try await eventually("the second store told revision \(last.revision)") { told.of("shared").last == last.revision }
            #expect(told.of("shared") == Array(start.revision...last.revision))
        }
    }
}
