import CatalogAPI
import CatalogKit
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Watches on every replica while writers on every replica change the filters.
@Suite("Replicas: Watch across replicas", .serialized, .timeLimit(.minutes(3)))
struct ReplicaWatchTests {
    static let options = (1...6).map { FilterOption(id: $0, title: "Option \($0)") }

    @Test("watchers on every replica see every revision of every writer, without a gap, and converge on the same state")
    func watchersConverge() async throws {
        try await withReplicas(3, on: .shared) { replicas in
            var clients: [CatalogClient] = []
            for index in 0..<3 { clients.append(try await replicas.client(index)) }
            let shared = try await clients[0].filters.define("shared", title: "Shared", options: Self.options)
            let categories = try await clients[0].filters.get("categories")
            var recorders: [WatchRecorder] = []
            for (index, client) in clients.enumerated() {
                recorders.append(WatchRecorder(
                    "shared on replica \(index)", client.filters.watch("shared", sinceRevision: shared.revision, delivery: .everyChange)))
                recorders.append(WatchRecorder(
                    "categories on replica \(index)",
                    client.filters.watch("categories", sinceRevision: categories.revision, delivery: .everyChange)))
            }
            // Each writer's last state of `shared`: the newest of them is the final one.
            let lastWritten = try await withThrowingTaskGroup(of: FilterState.self) { group in
                for (index, client) in clients.enumerated() {
                    group.addTask {
                        var random = SplitMix64(seed: UInt64(index + 11))
                        var last = shared
                        for step in 0..<30 {
                            switch step % 10 {
                            case 9:
                                last = try await client.filters.define(
                                    "shared", title: "Shared by \(index) at \(step)", options: Self.options)
                            case 4:
                                _ = try await client.categories.create(name: "replica \(index) step \(step)")
                            default:
                                last = try await client.filters.select("shared", optionId: Int64(random.next() % 6) + 1)
                            }
                        }
                        return last
                    }
                }
                return try await group.reduce(into: [FilterState]()) { $0.append($1) }
            }
            let finalShared = try #require(lastWritten.max { $0.revision < $1.revision })
            // A replica's own writes reach its hub before they return: the newest of the
            // replicas' states is the final one.
            var finalCategories = categories
            for client in clients {
                let state = try await client.filters.get("categories")
                if state.revision > finalCategories.revision { finalCategories = state }
            }
            for recorder in recorders {
                let isShared = recorder.label.hasPrefix("shared")
                let final = isShared ? finalShared : finalCategories
                try await recorder.waitForRevision(final.revision)
                #expect(recorder.gapFreeBreak(after: isShared ? shared.revision : categories.revision) == nil)
                #expect(recorder.states.last?.state == final, "\(recorder.label) ends on the final state")
                recorder.stop()
            }
            for client in clients {
                try await eventually("every replica to answer the final state") {
                    try await client.filters.get("shared") == finalShared
                }
                await client.close()
            }
        }
    }

    @Test("a watcher whose replica is killed with SIGKILL resumes on another without a gap or a repeat")
    func replicaKilledMidStream() async throws {
        try await withReplicas(3, on: .shared) { replicas in
            let writer = try await replicas.client(2)
            let start = try await writer.filters.define("shared", title: "Shared", options: Self.options)
            // The watcher knows every replica and is on the first.
            let watcher = try await CatalogClient.connect(
                to: (0..<3).map(replicas.endpoint), configuration: .replicaTests)
            let recorder = WatchRecorder("watcher", watcher.filters.watch("shared", sinceRevision: start.revision, delivery: .everyChange))
            var last = start
            for step in 0..<20 { last = try await writer.filters.select("shared", optionId: Int64(step % 6) + 1) }
            try await recorder.waitForRevision(last.revision)

            replicas.process(0).send(SIGKILL)
            _ = try await replicas.process(0).waitForExit()
            for step in 0..<20 { last = try await writer.filters.select("shared", optionId: Int64(step % 5) + 1) }
            try await recorder.waitForRevision(last.revision)
            #expect(recorder.gapFreeBreak(after: start.revision) == nil)
            #expect(recorder.states.last?.state == last)
            recorder.stop()
            await watcher.close()
            await writer.close()
        }
    }

    @Test("a Get or a Watch of a filter state a replica has not heard of yet catches up with the database first")
    func catchUpBeforeAnswering() async throws {
        try await withReplicas(2, on: .shared) { replicas in
            let writer = try await replicas.client(0)
            let reader = try await replicas.client(1, configuration: { var c = CatalogClient.Configuration.replicaTests; c.retry = .none; return c }())
            // Written the way a replica does, but without its notification: as if it were lost.
            try replicas.psql(
                """
                INSERT INTO filter (id, revision, deleted, options) VALUES ('quiet', 1, false, '[{"id":1,"title":"One"},{"id":2,"title":"Two"}]');
                INSERT INTO filter_step (filter_id, revision, title, source, edits, selected_id, presentation, updated_at, creates)
                VALUES ('quiet', 1, 'Quiet', NULL, '[["i",0,{"id":1,"title":"One"}],["i",1,{"id":2,"title":"Two"}]]', NULL, 'expanded', 0, true);
                """)
            #expect(try await reader.filters.get("quiet").revision == 1)
            try replicas.psql(
                """
                UPDATE filter SET revision = 2 WHERE id = 'quiet';
                INSERT INTO filter_step (filter_id, revision, title, source, edits, selected_id, presentation, updated_at, creates)
                VALUES ('quiet', 2, 'Quiet', NULL, NULL, 1, 'expanded', 0, false);
                """)
            // A client resuming on this replica after revision 2, which it saw on another.
            let recorder = WatchRecorder("watch resumed after revision 2", reader.filters.watch("quiet", sinceRevision: 2, delivery: .everyChange))
            let next = try await writer.filters.select("quiet", optionId: 2)
            #expect(next.revision == 3)
            try await recorder.waitForRevision(3)
            #expect(recorder.gapFreeBreak(after: 2) == nil)
            #expect(recorder.states.last?.state == next)
            recorder.stop()
            await writer.close()
            await reader.close()
        }
    }
}
