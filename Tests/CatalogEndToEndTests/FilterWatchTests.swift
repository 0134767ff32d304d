import CatalogAPI
import CatalogServices
import CatalogStore
import Foundation
import RPCCore
import RPCHTTP2
import Synchronization
import TestSupport
import Testing

@Suite("Filters: Watch over the wire")
struct FilterWatchTests {
    static let bench = DefineFilterRequest(
        filterId: "bench", title: "Bench", options: (1...4).map { FilterOption(id: Int64($0), title: "Option \($0)") })

    /// Selects options 1..4 in turn, `count` times; returns the last state.
    @discardableResult
    static func select(_ client: RPCClient, count: Int, filterId: String = "bench", offset: Int = 0) async throws -> FilterState? {
        var last: FilterState?
        for index in 0..<count {
            last = try await client.unary(
                FiltersService.select, SelectFilterRequest(filterId: filterId, optionId: Int64((index + offset) % 4 + 1)))
        }
        return last
    }

    @Test("a fresh Watch gets a snapshot, then synced, then one change per change with previousRevision")
    func snapshotSyncedChanges() async throws {
        try await withCatalogServer { server in
            _ = try await server.client.unary(FiltersService.define, Self.bench)
            let watch = try await WatchReader.open(server.client, WatchFilterRequest(filterId: "bench"))
            let snapshot = try await watch.next()
            #expect(snapshot.kind == .snapshot)
            #expect(snapshot.revision == 1)
            #expect(snapshot.state?.options.count == 4)
            #expect(snapshot.reset == nil)
            let synced = try await watch.next()
            #expect(synced.kind == .synced)
            #expect(synced.revision == 1)
            #expect(synced.state == nil)

            let selected = try await server.client.unary(FiltersService.select, SelectFilterRequest(filterId: "bench", optionId: 3))
            let change = try await watch.next()
            #expect(change.kind == .change)
            #expect(change.revision == 2)
            #expect(change.previousRevision == 1)
            #expect(change.state == selected)
            watch.cancel()
        }
    }

    @Test("subscribing is atomic with the snapshot: under a racing writer no change is missed or repeated", arguments: [FilterDelivery.everyChange])
    func atomicSubscribe(delivery: FilterDelivery) async throws {
        try await withCatalogServer { server in
            _ = try await server.client.unary(FiltersService.define, Self.bench)
            let writerConnection = try await server.connect()
            // Writes until every watcher is done, however slowly the watchers come.
            let watchersDone = Atomic(false)
            let writer = Task {
                var written = 0
                while !watchersDone.load(ordering: .relaxed) {
                    _ = try await Self.select(RPCClient(transport: writerConnection), count: 10, offset: written)
                    written += 10
                }
            }
            for _ in 0..<20 {
                let watch = try await WatchReader.open(server.client, WatchFilterRequest(filterId: "bench", delivery: delivery))
                let snapshot = try await watch.next()
                #expect(snapshot.kind == .snapshot)
                #expect(try await watch.next().kind == .synced)
                var expected = snapshot.revision + 1
                for _ in 0..<5 {
                    let change = try await watch.next()
                    #expect(change.kind == .change)
                    #expect(change.revision == expected, "changes follow the snapshot with no gap")
                    #expect(change.previousRevision == expected - 1)
                    expected += 1
                }
                watch.cancel()
            }
            watchersDone.store(true, ordering: .relaxed)
            try await writer.value
            await writerConnection.close()
        }
    }

    @Test("with concurrent writers, 60 subscribers on 3 connections see every revision once, in order, and converge")
    func orderingAndConvergence() async throws {
        try await withCatalogServer { server in
            _ = try await server.client.unary(FiltersService.define, Self.bench)
            var connections: [HTTP2ClientConnection] = []
            for _ in 0..<3 { connections.append(try await server.connect()) }
            var watches: [WatchReader] = []
            for index in 0..<60 {
                let client = RPCClient(transport: connections[index % 3])
                let watch = try await WatchReader.openSynced(client, WatchFilterRequest(filterId: "bench", delivery: .everyChange))
                watches.append(watch)
            }
            let writers = 4, writes = 50
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<writers {
                    let connection = try await server.connect()
                    group.addTask {
                        try await Self.select(RPCClient(transport: connection), count: writes, offset: writer)
                        await connection.close()
                    }
                }
                try await group.waitForAll()
            }
            let final = try await server.client.unary(FiltersService.get, FilterIDRequest(filterId: "bench"))
            #expect(final.revision > 1)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for watch in watches {
                    group.addTask {
                        let events = try await watch.read(throughRevision: final.revision)
                        #expect(events.map(\.revision) == Array(2...final.revision), "every revision once, in order")
                        #expect(events.allSatisfy { $0.kind == .change && $0.previousRevision == $0.revision - 1 })
                        #expect(events.last?.state == final)
                        watch.cancel()
                    }
                }
                try await group.waitForAll()
            }
            for connection in connections { await connection.close() }
        }
    }

    @Test("resume inside the history gives exactly the missed changes, then synced; at the current revision only synced")
    func resume() async throws {
        try await withCatalogServer { server in
            _ = try await server.client.unary(FiltersService.define, Self.bench)
            let last = try #require(try await Self.select(server.client, count: 10))
            #expect(last.revision == 11)
            for delivery in FilterDelivery.allCases {
                let watch = try await WatchReader.open(server.client, WatchFilterRequest(filterId: "bench", sinceRevision: 6, delivery: delivery))
                var events: [FilterEvent] = []
                for _ in 0..<6 { events.append(try await watch.next()) }
                #expect(events.map(\.kind) == [.change, .change, .change, .change, .change, .synced])
                #expect(events.map(\.revision) == [7, 8, 9, 10, 11, 11])
                #expect(events.prefix(5).map(\.previousRevision) == [6, 7, 8, 9, 10])
                #expect(events[4].state == last)
                watch.cancel()
            }
            let current = try await WatchReader.open(server.client, WatchFilterRequest(filterId: "bench", sinceRevision: 11))
            let synced = try await current.next()
            #expect(synced.kind == .synced)
            #expect(synced.revision == 11)
            current.cancel()
        }
    }

    @Test("history gone: latest gets a reset snapshot, everyChange OUT_OF_RANGE revisionCompacted; a future revision is futureRevision")
    func historyGoneAndFuture() async throws {
        var limits = FilterHub.Limits()
        limits.retainedChanges = 8
        try await withCatalogServer(filterLimits: limits) { server in
            _ = try await server.client.unary(FiltersService.define, Self.bench)
            let last = try #require(try await Self.select(server.client, count: 20))
            #expect(last.revision == 21)

            let latest = try await WatchReader.open(server.client, WatchFilterRequest(filterId: "bench", sinceRevision: 3))
            let reset = try await latest.next()
            #expect(reset.kind == .snapshot)
            #expect(reset.reset == true)
            #expect(reset.state == last)
            #expect(try await latest.next().kind == .synced)
            latest.cancel()

            let compacted = try await WatchReader.open(
                server.client, WatchFilterRequest(filterId: "bench", sinceRevision: 3, delivery: .everyChange))
            let error = try await #require(throws: RPCError.self) { _ = try await compacted.nextOrEnd() }
            #expect(error.code == .outOfRange)
            #expect(error.detail?.reason == "revisionCompacted")

            // The oldest retained state is 14: resuming after 13 still works in both modes.
            let edge = try await WatchReader.open(server.client, WatchFilterRequest(filterId: "bench", sinceRevision: 13, delivery: .everyChange))
            #expect(try await edge.next().revision == 14)
            edge.cancel()

            for delivery in FilterDelivery.allCases {
                let future = try await WatchReader.open(
                    server.client, WatchFilterRequest(filterId: "bench", sinceRevision: 22, delivery: delivery))
                let error = try await #require(throws: RPCError.self) { _ = try await future.nextOrEnd() }
                #expect(error.code == .outOfRange)
                #expect(error.detail?.reason == "futureRevision")
            }
            let unknown = try await WatchReader.open(server.client, WatchFilterRequest(filterId: "nope"))
            let notFound = try await #require(throws: RPCError.self) { _ = try await unknown.nextOrEnd() }
            #expect(notFound.code == .notFound)
            #expect(notFound.detail?.reason == "unknownFilter")
        }
    }

    @Test("an everyChange subscriber that falls behind the history is ended with OUT_OF_RANGE")
    func everyChangeFallsBehind() async throws {
        var limits = FilterHub.Limits()
        limits.retainedChanges = 8
        try await withCatalogServer(filterLimits: limits) { server in
            _ = try await server.client.unary(FiltersService.define, Self.bigOptions)
            let slowConnection = try await server.connect()
            let slow = try await WatchReader.openSynced(
                RPCClient(transport: slowConnection), WatchFilterRequest(filterId: "big", delivery: .everyChange))
            // Big states and a reader that does not read: the stream's buffers fill, then the history moves on.
            try await Self.select(server.client, count: 400, filterId: "big")
            var received = 0
            let error = try await #require(throws: RPCError.self) {
                while try await slow.nextOrEnd() != nil { received += 1 }
            }
            #expect(error.code == .outOfRange)
            #expect(error.detail?.reason == "revisionCompacted")
            #expect(received < 400)
            await slowConnection.close()
        }
    }

    /// A filter whose states are about 40 KB, so that a few fill a stream's buffers.
    static let bigOptions = DefineFilterRequest(
        filterId: "big", title: "Big",
        options: (1...400).map { FilterOption(id: Int64($0), title: String(repeating: "t", count: 90) + "\($0)") })

    @Test("a latest subscriber that stops reading is coalesced: it later gets the newest state, with the gap shown, and others are not slowed")
    func coalescing() async throws {
        try await withCatalogServer { server in
            _ = try await server.client.unary(FiltersService.define, Self.bigOptions)
            let slowConnection = try await server.connect()
            let slow = try await WatchReader.openSynced(RPCClient(transport: slowConnection), WatchFilterRequest(filterId: "big"))
            let fast = try await WatchReader.openSynced(server.client, WatchFilterRequest(filterId: "big"))

            let changes = 1000
            let last = try #require(try await Self.select(server.client, count: changes, filterId: "big"))
            let fastEvents = try await fast.read(throughRevision: last.revision)
            #expect(fastEvents.last?.state == last)

            let slowEvents = try await slow.read(throughRevision: last.revision)
            #expect(slowEvents.last?.state == last, "the slow subscriber converges on the newest state")
            #expect(slowEvents.count < changes / 2, "it was sent \(slowEvents.count) of \(changes) states: bounded, not queued")
            #expect(slowEvents.contains { ($0.previousRevision ?? 0) < $0.revision - 1 }, "previousRevision shows the skipped revisions")
            let revisions = slowEvents.map(\.revision)
            #expect(revisions == revisions.sorted() && Set(revisions).count == revisions.count, "in order, never twice")
            slow.cancel()
            fast.cancel()
            await slowConnection.close()
        }
    }

    @Test("a quiet Watch gets heartbeats with the current revision")
    func heartbeats() async throws {
        try await withCatalogServer { server in
            _ = try await server.client.unary(FiltersService.define, Self.bench)
            let state = try #require(try await Self.select(server.client, count: 2))
            let watch = try await WatchReader.openSynced(server.client, WatchFilterRequest(filterId: "bench", heartbeatSeconds: 1))
            let clock = ContinuousClock()
            let start = clock.now
            for _ in 0..<2 {
                let heartbeat = try await watch.next(timeout: .seconds(10))
                #expect(heartbeat.kind == .heartbeat)
                #expect(heartbeat.revision == state.revision)
                #expect(heartbeat.state == nil)
            }
            // The hub ticks once a second for every subscriber, so the first may come early; two cannot.
            #expect(start.duration(to: clock.now) >= .milliseconds(500), "heartbeats wait for the interval")
            watch.cancel()
            let invalid = try await WatchReader.open(server.client, WatchFilterRequest(filterId: "bench", heartbeatSeconds: 0))
            let error = try await #require(throws: RPCError.self) { _ = try await invalid.nextOrEnd() }
            #expect(error.code == .invalidArgument)
            #expect(error.detail?.field == "heartbeatSeconds")
        }
    }

    /// Waits until the hub counts `expected` subscribers (a cancelled stream is released
    /// asynchronously).
    static func waitForSubscribers(_ server: CatalogTestServer, _ expected: Int) async throws {
        try await eventually("\(expected) subscribers (\(server.app.filters.subscriberTotal) now)") {
            server.app.filters.subscriberTotal == expected
        }
    }

    @Test("past the subscriber limit a Watch is RESOURCE_EXHAUSTED before any event, and a cancelled one frees its slot")
    func subscriberLimit() async throws {
        var limits = FilterHub.Limits()
        limits.maxSubscribers = 3
        limits.maxSubscribersPerCaller = 4
        try await withCatalogServer(filterLimits: limits) { server in
            var watches: [WatchReader] = []
            for _ in 0..<3 {
                let watch = try await WatchReader.open(server.client, WatchFilterRequest(filterId: "categories"))
                #expect(try await watch.next().kind == .snapshot)
                watches.append(watch)
            }
            let refused = try await WatchReader.open(server.client, WatchFilterRequest(filterId: "categories"))
            let error = try await #require(throws: RPCError.self) { _ = try await refused.nextOrEnd() }
            #expect(error.code == .resourceExhausted)
            #expect(error.detail?.reason == "tooManySubscribers")

            watches.removeFirst().cancel()
            try await Self.waitForSubscribers(server, 2)
            let admitted = try await WatchReader.open(server.client, WatchFilterRequest(filterId: "categories"))
            #expect(try await admitted.next().kind == .snapshot)
            admitted.cancel()
            for watch in watches { watch.cancel() }
            try await Self.waitForSubscribers(server, 0)
        }
    }

    @Test("10 000 subscribe and cancel cycles on 25 connections leave no subscriber behind")
    func subscribeCancelCycles() async throws {
        try await withCatalogServer { server in
            // 400 cycles on each of 25 connections, as a real client spreading its watches would.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for lane in 0..<25 {
                    let connection = try await server.connect()
                    group.addTask {
                        for _ in 0..<400 {
                            let watch = try await WatchReader.open(RPCClient(transport: connection), WatchFilterRequest(filterId: "categories"))
                            let first = try await watch.next()
                            #expect(first.kind == .snapshot, "lane \(lane)")
                            watch.cancel()
                        }
                        await connection.close()
                    }
                }
                try await group.waitForAll()
            }
            try await Self.waitForSubscribers(server, 0)
            let watch = try await WatchReader.open(server.client, WatchFilterRequest(filterId: "categories"))
            #expect(try await watch.next().kind == .snapshot, "the server still serves watches")
            watch.cancel()
        }
    }

    @Test("deleting a filter ends its Watch streams with NOT_FOUND")
    func deleteEndsWatches() async throws {
        try await withCatalogServer { server in
            _ = try await server.client.unary(FiltersService.define, Self.bench)
            let watch = try await WatchReader.openSynced(server.client, WatchFilterRequest(filterId: "bench"))
            _ = try await server.client.unary(FiltersService.delete, FilterIDRequest(filterId: "bench"))
            let error = try await #require(throws: RPCError.self) { _ = try await watch.nextOrEnd() }
            #expect(error.code == .notFound)
            #expect(error.detail?.reason == "unknownFilter")
        }
    }

    @Test("graceful shutdown ends every Watch with UNAVAILABLE")
    func shutdownEndsWatches() async throws {
        try await withCatalogServer { server in
            let other = try await server.connect()
            let watches = [
                try await WatchReader.openSynced(server.client, WatchFilterRequest(filterId: "categories")),
                try await WatchReader.openSynced(RPCClient(transport: other), WatchFilterRequest(filterId: "categories", delivery: .everyChange)),
            ]
            server.app.beginGracefulShutdown()
            for watch in watches {
                let error = try await #require(throws: RPCError.self) { _ = try await watch.nextOrEnd() }
                #expect(error.code == .unavailable)
            }
            await other.close()
        }
    }

    @Test("revisions and the retained history survive a restart")
    func restartKeepsRevisions() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-restart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try await withCatalogServer(databaseIn: directory) { server in
            _ = try await server.client.unary(FiltersService.define, Self.bench)
            return try #require(try await Self.select(server.client, count: 5))
        }
        #expect(before.revision == 6)
        try await withCatalogServer(databaseIn: directory) { server in
            #expect(try await server.client.unary(FiltersService.get, FilterIDRequest(filterId: "bench")) == before)
            let watch = try await WatchReader.open(server.client, WatchFilterRequest(filterId: "bench", sinceRevision: 3, delivery: .everyChange))
            var events: [FilterEvent] = []
            for _ in 0..<4 { events.append(try await watch.next()) }
            #expect(events.map(\.revision) == [4, 5, 6, 6])
            #expect(events.last?.kind == .synced)
            let next = try await server.client.unary(FiltersService.select, SelectFilterRequest(filterId: "bench"))
            #expect(next.revision == 7)
            #expect(try await watch.next().revision == 7)
            watch.cancel()
        }
    }
}
