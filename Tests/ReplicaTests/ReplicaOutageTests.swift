import CatalogAPI
import CatalogKit
import Foundation
import TestSupport
import Testing

/// PostgreSQL restarted, or a replica's listening connection killed, under the replicas.
@Suite("Replicas: database outages", .serialized, .timeLimit(.minutes(3)))
struct ReplicaOutageTests {
    static let options = (1...4).map { FilterOption(id: $0, title: "Option \($0)") }

    /// A client that does not retry: each call's own outcome is what the test sees.
    static var noRetries: CatalogClient.Configuration {
        var configuration = CatalogClient.Configuration.replicaTests
        configuration.retry = .none
        return configuration
    }

    /// The status `call` fails with, or `nil` when it succeeds.
    static func status(_ call: () async throws -> Void) async -> StatusCode? {
        do {
            try await call()
            return nil
        } catch let error as RPCError {
            return error.code
        } catch {
            return .unknown
        }
    }

    @Test("with PostgreSQL down, calls answer UNAVAILABLE; once it is back, the replicas serve again and Watch streams go on")
    func databaseRestarted() async throws {
        try await withReplicas(2) { replicas in
            let client = try await replicas.client(0, configuration: Self.noRetries)
            let watcherClient = try await replicas.client(1)
            let item = try await client.items.create(title: "Kept")
            let start = try await client.filters.define("shared", title: "Shared", options: Self.options)
            let recorder = WatchRecorder(
                "watcher on replica 1", watcherClient.filters.watch("shared", sinceRevision: start.revision, delivery: .everyChange))
            let before = try await client.filters.select("shared", optionId: 1)
            try await recorder.waitForRevision(before.revision)

            try replicas.cluster.stopServer()
            let timeout = CallOptions(timeout: .seconds(20))
            #expect(await Self.status { _ = try await client.items.get(id: item.id, options: timeout) } == .unavailable)
            #expect(await Self.status { _ = try await client.categories.list(options: timeout) } == .unavailable)
            #expect(await Self.status { _ = try await client.categories.create(name: "Lost", options: timeout) } == .unavailable)
            #expect(await Self.status { _ = try await client.filters.select("shared", optionId: 2, options: timeout) } == .unavailable)

            try replicas.cluster.startServer()
            let after = try await eventually("the replica to serve again") { () async throws -> FilterState? in
                try? await client.filters.select("shared", optionId: 3)
            }
            #expect(try await client.items.get(id: item.id) == item)
            #expect(try await client.categories.list().contains { $0.name == "Lost" } == false)
            try await recorder.waitForRevision(after.revision)
            #expect(recorder.gapFreeBreak(after: start.revision) == nil)
            #expect(recorder.states.last?.state == after)
            recorder.stop()
            await client.close()
            await watcherClient.close()
        }
    }

    @Test("health is NOT_SERVING while PostgreSQL is down, and SERVING again once it is back")
    func healthFollowsTheDatabase() async throws {
        try await withReplicas(1) { replicas in
            let client = try await replicas.client(0)
            let watch = try await client.health.watch()
            let (statuses, sink) = AsyncStream<ServingStatus>.makeStream()
            let watcher = Task {
                for try await update in watch { sink.yield(update.status) }
            }
            var updates = statuses.makeAsyncIterator()
            #expect(await updates.next() == .serving)

            try replicas.cluster.stopServer()
            #expect(await updates.next() == .notServing)
            #expect(try await client.health.check() == .notServing)

            try replicas.cluster.startServer()
            #expect(await updates.next() == .serving)
            #expect(try await client.health.check(service: Health.serviceName) == .serving)
            watcher.cancel()
            _ = await watcher.result
            await client.close()
        }
    }

    @Test("the listening connections killed with pg_terminate_backend lose no change")
    func listenerTerminated() async throws {
        try await withReplicas(2) { replicas in
            let writer = try await replicas.client(0)
            let watcherClient = try await replicas.client(1)
            let start = try await writer.filters.define("shared", title: "Shared", options: Self.options)
            let recorder = WatchRecorder(
                "watcher on replica 1", watcherClient.filters.watch("shared", sinceRevision: start.revision, delivery: .everyChange))
            var last = start
            for round in 0..<5 {
                let terminated = try replicas.cluster.psql(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'")
                #expect(Int(terminated.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 >= 1, "round \(round) killed a listener")
                for step in 0..<10 { last = try await writer.filters.select("shared", optionId: Int64((round + step) % 4) + 1) }
            }
            try await recorder.waitForRevision(last.revision)
            #expect(recorder.gapFreeBreak(after: start.revision) == nil)
            #expect(recorder.states.last?.state == last)
            recorder.stop()
            await writer.close()
            await watcherClient.close()
        }
    }
}
