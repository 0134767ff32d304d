import CatalogKit
import CatalogTestSupport
import Synchronization
import TestSupport
import Testing

@Suite("client.filters.watch: a resuming sequence of filter events")
struct FilterWatchClientTests {
    private static var quickResume: CatalogClient.Configuration {
        var configuration = CatalogClient.Configuration.defaults
        configuration.reconnectBackoff = Backoff(initial: .milliseconds(20), maximum: .milliseconds(100))
        return configuration
    }

    private static let levels = [FilterOption(id: 1, title: "Débutant"), FilterOption(id: 2, title: "Expert")]

    /// Makes `count` effective changes to filter `filterId` (a toggle of option 1 each time).
    private static func change(_ client: CatalogClient, _ filterId: String, times count: Int) async throws {
        for _ in 0..<count { _ = try await client.filters.select(filterId, optionId: 1, toggle: true) }
    }

    @Test("a snapshot, synced, then every change once and in order", .timeLimit(.minutes(1)))
    func snapshotThenChanges() async throws {
        try await withConnectedClient { client in
            _ = try await client.filters.define("formations", title: "Niveaux", options: Self.levels)
            let watch = RecordedWatch(client, filterId: "formations", delivery: .everyChange)
            let snapshot = try #require(await watch.next())
            #expect(snapshot.kind == .snapshot)
            #expect(snapshot.state?.revision == 1)
            #expect(await watch.next()?.kind == .synced)

            try await Self.change(client, "formations", times: 10)
            try await watch.read(throughRevision: 11)
            #expect(watch.stateRevisions == Array(1...11))
            #expect(watch.received.dropFirst(2).allSatisfy { $0.kind == .change })
            #expect(watch.received.last?.state?.selectedId == nil, "ten toggles end on \"all\"")
            watch.cancel()
            #expect(await watch.end() == nil)
        }
    }

    /// Watches filter `formations` through revision 6 on one server, makes `missed` changes
    /// through a second server on the same file while the first is down, restarts the first
    /// on its port, and runs `body` with the client and the watch meanwhile.
    private static func watchAcrossRestart(
        delivery: FilterDelivery,
        missed: Int,
        _ body: (CatalogClient, RecordedWatch) async throws -> Void
    ) async throws {
        let database = try TestDatabase()
        let (client, port, watch) = try await withCatalogServer(databasePath: database.path) { port in
            let client = try await CatalogClient.connect(port: port, configuration: Self.quickResume)
            _ = try await client.filters.define("formations", title: "Niveaux", options: Self.levels)
            let watch = RecordedWatch(client, filterId: "formations", delivery: delivery)
            #expect(await watch.next()?.state?.revision == 1)
            try await Self.change(client, "formations", times: 5)
            try await watch.read(throughRevision: 6)
            return (client, port, watch)
        }
        try await withCatalogServer(databasePath: database.path) { otherPort in
            let other = try await CatalogClient.connect(port: otherPort)
            try await Self.change(other, "formations", times: missed)
            await other.close()
        }
        try await withCatalogServer(port: port, databasePath: database.path) { _ in
            try await body(client, watch)
            watch.cancel()
            await client.close()
        }
    }

    @Test("across a server restart it resumes after the last revision: the missed changes once, none repeated", .timeLimit(.minutes(1)))
    func resumeAcrossRestart() async throws {
        try await Self.watchAcrossRestart(delivery: .everyChange, missed: 5) { client, watch in
            try await watch.read(throughRevision: 11)
            try await Self.change(client, "formations", times: 3)
            try await watch.read(throughRevision: 14)
            #expect(watch.stateRevisions == Array(1...14))
            let resumed = try #require(watch.received.first { $0.revision == 7 })
            #expect(resumed.kind == .change)
            #expect(resumed.previousRevision == 6)
            #expect(watch.interruptions >= 1)
        }
    }

    @Test("`updates` yields the events and each interruption in order with them, then the resumed events", .timeLimit(.minutes(1)))
    func updatesAcrossRestart() async throws {
        let database = try TestDatabase()
        let callbacks = Atomic(0)
        let (client, port, updates) = try await withCatalogServer(databasePath: database.path) { port in
            let client = try await CatalogClient.connect(port: port, configuration: Self.quickResume)
            var updates = client.filters.watch("categories", onInterruption: { _ in callbacks.add(1, ordering: .relaxed) }).updates.makeAsyncIterator()
            guard case .event(let snapshot)? = try await updates.next() else { throw RPCError(.internalError, "no snapshot") }
            #expect(snapshot.kind == .snapshot)
            guard case .event(let synced)? = try await updates.next() else { throw RPCError(.internalError, "no synced") }
            #expect(synced.kind == .synced)
            return (client, port, updates)
        }
        var iterator = updates
        guard case .interrupted(let error)? = try await iterator.next() else {
            Issue.record("the server's shutdown is not the next update")
            return
        }
        #expect(error.code == .unavailable)
        #expect(callbacks.load(ordering: .relaxed) == 0, "an interruption that is an element is not also reported to the callback")
        try await withCatalogServer(port: port, databasePath: database.path) { _ in
            let selected = try await client.filters.select("categories", optionId: 2)
            while let update = try await iterator.next() {
                if case .event(let event) = update, event.state?.selectedId == 2 {
                    #expect(event.revision == selected.revision)
                    break
                }
            }
        }
        // After the server's shutdown has ended the Watch: `close()` lets open calls finish.
        await client.close()
    }

    @Test("when the missed history is gone, `latest` surfaces a reset snapshot and goes on", .timeLimit(.minutes(2)))
    func resetSnapshotAfterLongOutage() async throws {
        try await Self.watchAcrossRestart(delivery: .latest, missed: 1030) { client, watch in
            try await watch.read(throughRevision: 1036)
            let reset = try #require(watch.received.last)
            #expect(reset.kind == .snapshot)
            #expect(reset.reset == true)
            #expect(reset.state?.revision == 1036)
            try await Self.change(client, "formations", times: 1)
            try await watch.read(throughRevision: 1037)
            #expect(watch.stateRevisions == Array(1...6) + [1036, 1037])
        }
    }

    @Test("when the missed history is gone, `everyChange` ends with OUT_OF_RANGE revisionCompacted", .timeLimit(.minutes(2)))
    func compactedAfterLongOutage() async throws {
        try await Self.watchAcrossRestart(delivery: .everyChange, missed: 1030) { _, watch in
            #expect(await watch.next() == nil)
            let error = try #require(await watch.end())
            #expect(error.code == .outOfRange)
            #expect(error.reason == "revisionCompacted")
            #expect(watch.stateRevisions == Array(1...6))
        }
    }

    @Test("cancelling the task ends iteration without an error, also while waiting to resume", .timeLimit(.minutes(1)))
    func cancelWhileResuming() async throws {
        let database = try TestDatabase()
        let (client, watch) = try await withCatalogServer(databasePath: database.path) { port in
            let client = try await CatalogClient.connect(port: port, configuration: Self.quickResume)
            let watch = RecordedWatch(client, filterId: "categories")
            #expect(await watch.next()?.kind == .snapshot)
            return (client, watch)
        }
        try await eventually { watch.interruptions >= 2 }
        watch.cancel()
        #expect(await watch.end() == nil)
        await client.close()
    }

    @Test("closing the client ends a watch being iterated with CANCELLED, and close returns", .timeLimit(.minutes(1)))
    func closeEndsAWatch() async throws {
        try await withCatalogServerApp { _, port in
            let client = try await CatalogClient.connect(port: port)
            let watch = RecordedWatch(client, filterId: "categories")
            #expect(await watch.next()?.kind == .snapshot)
            let health = try await client.health.watch()
            var answers = health.makeAsyncIterator()
            #expect(try await answers.next()?.status == .serving)

            await client.close()
            let error = try #require(await watch.end())
            #expect(error.code == .cancelled && error.message == "the client was closed")
            await #expect(throws: RPCError.self) { try await answers.next() }
            let late = RecordedWatch(client, filterId: "categories")
            #expect(await late.end()?.code == .cancelled)
        }
    }

    @Test("closing the client ends a watch waiting to resume at once, not after its backoff", .timeLimit(.minutes(1)))
    func closeEndsAResumingWatch() async throws {
        var configuration = CatalogClient.Configuration.defaults
        configuration.reconnectBackoff = Backoff(initial: .seconds(600), maximum: .seconds(600))
        let database = try TestDatabase()
        let (client, watch) = try await withCatalogServer(databasePath: database.path) { port in
            let client = try await CatalogClient.connect(port: port, configuration: configuration)
            let watch = RecordedWatch(client, filterId: "categories")
            #expect(await watch.next()?.kind == .snapshot)
            return (client, watch)
        }
        try await eventually { watch.interruptions == 1 }
        await client.close()
        let error = try #require(await watch.end())
        #expect(error.code == .cancelled && error.message == "the client was closed")
    }

    @Test("a deleted filter ends the watch with NOT_FOUND, not a resume", .timeLimit(.minutes(1)))
    func deletedFilterEnds() async throws {
        try await withConnectedClient { client in
            _ = try await client.filters.define("formations", title: "Niveaux", options: Self.levels)
            let watch = RecordedWatch(client, filterId: "formations")
            #expect(await watch.next()?.kind == .snapshot)
            try await client.filters.delete("formations")
            let error = try #require(await watch.end())
            #expect(error.code == .notFound)
            #expect(watch.interruptions == 0)
        }
    }

    @Test("a timeout bounds the whole watch: DEADLINE_EXCEEDED after it", .timeLimit(.minutes(1)))
    func timeoutBoundsTheWatch() async throws {
        try await withConnectedClient { client in
            let started = ContinuousClock.now
            let watch = RecordedWatch(client, filterId: "categories", options: .timeout(.seconds(1)))
            let error = try #require(await watch.end())
            #expect(error.code == .deadlineExceeded)
            #expect(ContinuousClock.now - started >= .seconds(1))
            #expect(watch.interruptions == 0)
        }
    }
}
