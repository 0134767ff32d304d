import CatalogAPI
import CatalogKit
import CatalogdTestSupport
import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// PostgreSQL failing under a replica's writers, as an outside fault-injection run found it:
/// restarted again and again, or its connections terminated mid-transaction. Every call is
/// answered OK or UNAVAILABLE before its deadline (never INTERNAL, never a hang), every
/// acknowledged write stays, and SIGTERM in the middle of it all ends the replica within its
/// grace period.
@Suite("Replicas: PostgreSQL faults under writes", .serialized, .timeLimit(.minutes(4)))
struct ReplicaFaultTests {
    static let deadline = Duration.seconds(5)
    static let grace = 3

    /// What the writers were answered.
    final class Outcomes: Sendable {
        private struct State {
            var statuses: [StatusCode: Int] = [:]
            var created: [String] = []
            var longest: Duration = .zero
            var examples: [StatusCode: String] = [:]
        }

        private let state = Mutex(State())

        func record(_ status: StatusCode, took: Duration, created name: String? = nil, message: String = "") {
            state.withLock { state in
                state.statuses[status, default: 0] += 1
                state.longest = max(state.longest, took)
                if let name { state.created.append(name) }
                if status != .ok, state.examples[status] == nil { state.examples[status] = message }
            }
        }

        var statuses: [StatusCode: Int] { state.withLock { $0.statuses } }
        var created: [String] { state.withLock { $0.created } }
        var okCount: Int { statuses[.ok] ?? 0 }
        var summary: String {
            state.withLock { "statuses \($0.statuses), longest \($0.longest), examples \($0.examples)" }
        }
    }

    /// Set once, read by the writers.
    final class Stop: Sendable {
        private let flag = Atomic(false)
        var isSet: Bool { flag.load(ordering: .relaxed) }
        func set() { flag.store(true, ordering: .relaxed) }
    }

    /// Three writers on `client`, each making a category and a selection in turn, every call
    /// with a 5 s deadline and no retry, until `stop` is set.
    static func writers(_ client: CatalogClient, outcomes: Outcomes, stop: Stop) async {
        let options = CallOptions(timeout: deadline)
        await withDiscardingTaskGroup { group in
            for writer in 0..<3 {
                group.addTask {
                    var step = 0
                    while !stop.isSet {
                        step += 1
                        let name = "w\(writer) \(step)"
                        await call(outcomes, created: name) { _ = try await client.categories.create(name: name, options: options) }
                        await call(outcomes) {
                            _ = try await client.filters.select("shared", optionId: Int64(step % 4 + 1), options: options)
                        }
                    }
                }
            }
        }
    }

    private static func call(_ outcomes: Outcomes, created name: String? = nil, _ body: () async throws -> Void) async {
        let start = ContinuousClock.now
        do {
            try await body()
            outcomes.record(.ok, took: ContinuousClock.now - start, created: name)
        } catch {
            let error = RPCError(mapping: error)
            outcomes.record(error.code, took: ContinuousClock.now - start, message: error.message)
            if error.code == .unavailable { try? await Task.sleep(for: .milliseconds(20)) }
        }
    }

    /// Runs the writers against one replica while `faults` runs, then SIGTERMs the replica with
    /// the writers still going; checks every answer, the exit, and every acknowledged write.
    static func underFaults(_ faults: (Replicas) async throws -> Void) async throws {
        try await withReplicas(1, extraArguments: ["--shutdown-grace-seconds", "\(grace)"]) { replicas in
            var configuration = CatalogClient.Configuration.replicaTests
            configuration.retry = .none
            let client = try await replicas.client(0, configuration: configuration)
            let options = (1...4).map { FilterOption(id: $0, title: "Option \($0)") }
            _ = try await client.filters.define("shared", title: "Shared", options: options)
            let outcomes = Outcomes()
            let stop = Stop()
            let writing = Task { await writers(client, outcomes: outcomes, stop: stop) }
            try await faults(replicas)
            let okBefore = outcomes.okCount
            try await eventually("writes to succeed again after the faults") { outcomes.okCount > okBefore + 3 }

            let replica = replicas.process(0)
            let signalled = ContinuousClock.now
            replica.send(SIGTERM)
            let exit = try await replica.waitForExit(timeout: .seconds(grace + 15))
            let took = ContinuousClock.now - signalled
            stop.set()
            await writing.value
            await client.close()

            #expect(exit.status == 0 && !exit.killedBySignal, "\(exit)")
            #expect(took < .seconds(grace + 2), "SIGTERM to exit took \(took) with a \(grace) s grace period")
            #expect(exit.stderr.contains("server stopped"), "\(exit)")
            let statuses = outcomes.statuses
            #expect(Set(statuses.keys).isSubset(of: [.ok, .unavailable]), "\(outcomes.summary)")
            #expect(statuses[.internalError] == nil, "\(outcomes.summary)")
            #expect(statuses[.deadlineExceeded] == nil, "no call waited out its 5 s deadline: \(outcomes.summary)")
            #expect((statuses[.unavailable] ?? 0) > 0, "the faults reached the calls: \(outcomes.summary)")

            // Every acknowledged write is there, as a new replica reads it.
            let reader = try await CatalogdProcess.start(database: replicas.cluster.url())
            defer { reader.kill() }
            let readClient = try await CatalogClient.connect(
                to: [CatalogClient.Endpoint(host: "127.0.0.1", port: reader.port)], configuration: .replicaTests)
            let snapshot = try await CatalogSnapshot.read(readClient)
            expectInvariants(snapshot)
            let names = Set(snapshot.categories.map(\.name))
            let missing = outcomes.created.filter { !names.contains($0) }
            #expect(missing.isEmpty, "acknowledged but missing: \(missing)")
            await readClient.close()
        }
    }

    @Test("PostgreSQL restarted 6 times, 2 s apart, under three writers")
    func restartsUnderWrites() async throws {
        try await Self.underFaults { replicas in
            for _ in 0..<6 {
                try await Task.sleep(for: .seconds(2))
                try replicas.cluster.restartServer()
            }
        }
    }

    @Test("the replica's connections terminated with pg_terminate_backend mid-transaction under three writers")
    func terminatedUnderWrites() async throws {
        try await Self.underFaults { replicas in
            var terminated = 0
            for _ in 0..<40 {
                try await Task.sleep(for: .milliseconds(100))
                let count = try replicas.cluster.psql(
                    """
                    SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                    WHERE datname = 'catalog' AND pid <> pg_backend_pid() AND backend_type = 'client backend'
                      AND state IN ('active', 'idle in transaction') AND query NOT LIKE 'LISTEN%'
                    """)
                terminated += Int(count.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            }
            #expect(terminated > 0, "some connection was caught mid-transaction")
        }
    }
}
