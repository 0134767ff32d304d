import CatalogAPI
import CatalogStore
import Foundation
import PostgresTestSupport
import RPCCore
import TestSupport
import Testing

@testable import CatalogStorePostgres

/// Every way PostgreSQL can become unreachable under a call, injected at the statement it hits
/// by a proxy between the store and a real server: the call answers UNAVAILABLE
/// `databaseUnavailable` (never INTERNAL, never a hang), nothing it did stays, and the store
/// serves the next call.
@Suite("PostgreSQL store under faults", .serialized, .timeLimit(.minutes(3)))
struct StoreFaultTests {
    typealias Fault = PostgresFaultProxy.Fault

    /// Runs `body` with a store reaching a fresh database of the shared cluster through a proxy.
    static func withStoreBehindProxy(
        statementTimeout: Duration = .seconds(10),
        _ body: (PostgresCatalogStore, PostgresFaultProxy) async throws -> Void
    ) async throws {
        let cluster = try PostgresCluster.shared()
        let database = "faults_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
        try cluster.createDatabase(database)
        defer { try? cluster.dropDatabase(database) }
        let proxy = try await PostgresFaultProxy.start(for: cluster)
        var settings = PostgresCatalogStore.Settings()
        settings.maxReconnectDelay = .milliseconds(100)
        settings.connectionWait = .seconds(1)
        settings.statementTimeout = statementTimeout
        do {
            try await PostgresCatalogStore.withStore(
                at: try PostgresLocation(url: proxy.url(database: database)), settings: settings, logger: quietLogger()
            ) { store in
                try await body(store, proxy)
            }
        } catch {
            await proxy.stop()
            throw error
        }
        await proxy.stop()
    }

    /// The error `call` throws, or `nil`.
    static func failure(_ call: () async throws -> Void) async -> RPCError? {
        do {
            try await call()
            return nil
        } catch let error as CatalogError {
            return error.rpcError
        } catch {
            return RPCError(.unknown, "not a catalog error: \(error)")
        }
    }

    static func expectUnavailable(_ error: RPCError?, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(error?.code == .unavailable, "got \(String(describing: error))", sourceLocation: sourceLocation)
        #expect(error?.detail?.reason == "databaseUnavailable", sourceLocation: sourceLocation)
    }

    /// Waits until the store writes again, then checks that `name` was not written before.
    static func servesAgain(_ store: PostgresCatalogStore, without name: String) async throws {
        let written = try await eventually("the store to write again") { () async throws -> Category? in
            try? await store.createCategory(CategoryDraft(name: CategoryRules.name("After \(UUID().uuidString.prefix(8))")))
        }
        #expect(written.name.hasPrefix("After"))
        #expect(try await store.listCategories(CategoryQuery()).contains { $0.name == name } == false, "\(name) was not written")
    }

    static func draft(_ name: String) throws -> CategoryDraft {
        CategoryDraft(name: try CategoryRules.name(name))
    }

    @Test(
        "PostgreSQL terminating the connection at a statement or at COMMIT: UNAVAILABLE, nothing written",
        arguments: ["INSERT INTO category", "COMMIT"])
    func terminatedAt(trigger: String) async throws {
        try await Self.withStoreBehindProxy { store, proxy in
            proxy.arm(Fault(on: trigger, .terminateBackend))
            Self.expectUnavailable(await Self.failure { _ = try await store.createCategory(try Self.draft("Lost")) })
            #expect(proxy.fired == [trigger])
            try await Self.servesAgain(store, without: "Lost")
        }
    }

    @Test("a connection PostgreSQL terminates at BEGIN is replaced by another; terminated there too, UNAVAILABLE")
    func terminatedAtBegin() async throws {
        try await Self.withStoreBehindProxy { store, proxy in
            proxy.arm(Fault(on: "BEGIN", .terminateBackend))
            let written = try await store.createCategory(try Self.draft("Once"))
            #expect(proxy.fired == ["BEGIN"])
            #expect(try await store.listCategories(CategoryQuery()).filter { $0.name == "Once" } == [written])

            proxy.arm(Fault(on: "BEGIN", .terminateBackend, times: 2))
            Self.expectUnavailable(await Self.failure { _ = try await store.createCategory(try Self.draft("Lost")) })
            #expect(proxy.fired == ["BEGIN", "BEGIN", "BEGIN"])
            try await Self.servesAgain(store, without: "Lost")
        }
    }

    @Test(
        "a connection closed, reset, or ended with 57P01, 57P02 or 57P03 mid-statement: UNAVAILABLE",
        arguments: [
            PostgresFaultProxy.Action.closeConnection,
            .resetConnection,
            .fatal(sqlState: "57P01", message: "terminating connection due to administrator command"),
            .fatal(sqlState: "57P02", message: "terminating connection because of crash of another server process"),
            .fatal(sqlState: "57P03", message: "the database system is shutting down"),
        ])
    func connectionLost(action: PostgresFaultProxy.Action) async throws {
        try await Self.withStoreBehindProxy { store, proxy in
            proxy.arm(Fault(on: "INSERT INTO category", action))
            Self.expectUnavailable(await Self.failure { _ = try await store.createCategory(try Self.draft("Lost")) })
            #expect(proxy.fired == ["INSERT INTO category"])
            try await Self.servesAgain(store, without: "Lost")
        }
    }

    @Test("a filter write and a read that lose their connection: UNAVAILABLE")
    func filterWriteAndRead() async throws {
        try await Self.withStoreBehindProxy { store, proxy in
            proxy.arm(Fault(on: "INSERT INTO filter_step", .terminateBackend))
            Self.expectUnavailable(await Self.failure { _ = try await store.updateFilter("categories", .togglePresentation) })
            proxy.arm(Fault(on: "FROM item", .resetConnection))
            Self.expectUnavailable(await Self.failure { _ = try await store.listItems(ItemQuery(pageSize: 10)) })
            #expect(proxy.fired == ["INSERT INTO filter_step", "FROM item"])
            let state = try await eventually("the store to write again") { () async throws -> FilterState? in
                try? await store.updateFilter("categories", .togglePresentation)
            }
            #expect(state.presentation == .collapsed, "the lost toggle left the presentation as it was")
        }
    }

    @Test("a write refused by a rule whose ROLLBACK meets an outage answers its own error; the connection is not reused")
    func rollbackLost() async throws {
        try await Self.withStoreBehindProxy { store, proxy in
            _ = try await store.createCategory(try Self.draft("Twice"))
            proxy.arm(Fault(on: "ROLLBACK", .terminateBackend))
            let refused = await Self.failure { _ = try await store.createCategory(try Self.draft("Twice")) }
            #expect(refused?.code == .alreadyExists)
            #expect(refused?.detail?.reason == "duplicateName")
            #expect(proxy.fired == ["ROLLBACK"])
            try await Self.servesAgain(store, without: "Lost")
        }
    }

    @Test("a dry run whose ROLLBACK meets an outage answers what it would do, and writes nothing")
    func dryRunRollbackLost() async throws {
        try await Self.withStoreBehindProxy { store, proxy in
            let category = try await store.createCategory(try Self.draft("Kept"))
            proxy.arm(Fault(on: "ROLLBACK", .resetConnection))
            let response = try await store.deleteCategory(
                CategoryDeletion(id: category.id, items: .reject, expectedRevision: nil, dryRun: true))
            #expect(response.deletedItems == 0)
            #expect(proxy.fired == ["ROLLBACK"])
            try await Self.servesAgain(store, without: "Lost")
            #expect(try await store.listCategories(CategoryQuery()).contains { $0.id == category.id }, "the dry run deleted nothing")
        }
    }

    @Test("a server that stops answering: the statement's bound closes the connection, UNAVAILABLE")
    func silentServer() async throws {
        try await Self.withStoreBehindProxy(statementTimeout: .seconds(1)) { store, proxy in
            proxy.arm(Fault(on: "INSERT INTO category", .stall))
            Self.expectUnavailable(await Self.failure { _ = try await store.createCategory(try Self.draft("Lost")) })
            #expect(proxy.fired == ["INSERT INTO category"])
            try await Self.servesAgain(store, without: "Lost")
        }
    }

    @Test("a call cancelled while PostgreSQL does not answer ends at once, without waiting for the bound")
    func cancelledWhileWaiting() async throws {
        try await Self.withStoreBehindProxy(statementTimeout: .seconds(3_600)) { store, proxy in
            proxy.arm(Fault(on: "INSERT INTO category", .stall))
            let call = Task { await Self.failure { _ = try await store.createCategory(try Self.draft("Lost")) } }
            try await eventually("the statement to be held") { proxy.fired == ["INSERT INTO category"] }
            call.cancel()
            let error = await call.value
            #expect(error != nil, "the cancelled call did not succeed")
            try await Self.servesAgain(store, without: "Lost")
        }
    }

    @Test(
        "new connections refused (57P03 at start-up, or nothing listening) with every connection lost: UNAVAILABLE, then serving again",
        arguments: [true, false])
    func noNewConnections(startingUp: Bool) async throws {
        try await Self.withStoreBehindProxy { store, proxy in
            if startingUp {
                proxy.refuseNewConnections(sqlState: "57P03")
            } else {
                try await proxy.stopListening()
            }
            proxy.closeAllConnections()
            for _ in 0..<3 {
                Self.expectUnavailable(await Self.failure { _ = try await store.createCategory(try Self.draft("Lost")) })
                Self.expectUnavailable(await Self.failure { _ = try await store.listItems(ItemQuery(pageSize: 10)) })
            }
            if startingUp {
                proxy.refuseNewConnections(sqlState: nil)
            } else {
                try await proxy.startListening()
            }
            try await Self.servesAgain(store, without: "Lost")
        }
    }
}
