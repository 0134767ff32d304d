import CatalogAPI
import CatalogKit
import ChildProcess
import Synchronization
import Testing

/// `Configuration.loadBalancing = .roundRobin(healthCheck:)`: a connection to each endpoint,
/// calls in turn over those ready and serving. The replicas are in-process HTTP/2 servers with
/// the real health service that count the calls they answer (`CountingReplica`); retries are
/// off, so that a call the balancer sends to the wrong place fails.
@Suite("Round-robin over several endpoints, health-checked", .timeLimit(.minutes(1)))
struct RoundRobinTests {
    private static func local(_ port: Int) -> CatalogClient.Endpoint {
        CatalogClient.Endpoint(host: "127.0.0.1", port: port)
    }

    private static func roundRobin(healthCheck: Bool = true, retry: RetryPolicy = .none) -> CatalogClient.Configuration {
        var configuration = CatalogClient.Configuration.quickReconnect
        configuration.loadBalancing = .roundRobin(healthCheck: healthCheck)
        configuration.retry = retry
        return configuration
    }

    @Test("with every endpoint ready, reads and writes go to each in turn: an even spread")
    func evenSpread() async throws {
        let ports = try (0..<3).map { _ in try freeLoopbackPort() }
        try await withCountingReplicas(on: ports) { replicas in
            let client = try await CatalogClient.connect(to: ports.map(Self.local), configuration: Self.roundRobin())
            try await Self.readUntilEachAnswered(client, replicas)
            #expect(try await Self.readsAnswered(30, client, by: replicas) == [10, 10, 10])
            for index in 0..<30 { _ = try await client.categories.create(name: "Category \(index)") }
            #expect(replicas.map(\.writes) == [10, 10, 10])
            await client.close()
        }
    }

    @Test("an endpoint down at the start: a lazy client's first call waits for another, calls go to the others, the endpoint joins once up")
    func joinsOnceUp() async throws {
        let ports = try (0..<3).map { _ in try freeLoopbackPort() }
        try await withCountingReplicas(on: Array(ports.prefix(2))) { replicas in
            let client = CatalogClient(lazilyConnectingTo: ports.map(Self.local), configuration: Self.roundRobin())
            for _ in 0..<20 { _ = try await client.categories.list() }
            #expect(replicas.map(\.reads).reduce(0, +) == 20)
            try await withCountingReplica(on: ports[2]) { latecomer in
                try await Self.readUntilEachAnswered(client, [latecomer])
                #expect(try await Self.readsAnswered(30, client, by: replicas + [latecomer]) == [10, 10, 10])
            }
            await client.close()
        }
    }

    @Test("an endpoint whose health is NOT_SERVING gets no call until it is SERVING again")
    func notServing() async throws {
        let ports = try (0..<3).map { _ in try freeLoopbackPort() }
        try await withCountingReplicas(on: ports) { replicas in
            let client = try await CatalogClient.connect(to: ports.map(Self.local), configuration: Self.roundRobin())
            try await Self.readUntilEachAnswered(client, replicas)
            replicas[1].health.setStatus(.notServing)
            try await Self.readUntilLeftOut(client, replicas[1], rounds: replicas.count)
            #expect(try await Self.readsAnswered(30, client, by: replicas) == [15, 0, 15])
            #expect(client.connectionState == .ready)

            replicas[1].health.setStatus(.serving)
            try await Self.readUntilEachAnswered(client, [replicas[1]])
            #expect(try await Self.readsAnswered(30, client, by: replicas) == [10, 10, 10])
            await client.close()
        }
    }

    @Test("every endpoint NOT_SERVING: a transient failure, calls fail UNAVAILABLE at once; ready again once one serves")
    func noneServing() async throws {
        let ports = try (0..<2).map { _ in try freeLoopbackPort() }
        try await withCountingReplicas(on: ports) { replicas in
            let client = try await CatalogClient.connect(to: ports.map(Self.local), configuration: Self.roundRobin())
            try await Self.readUntilEachAnswered(client, replicas)
            var states = client.connectionStates.makeAsyncIterator()
            #expect(await states.next() == .ready)
            let answered = replicas.map(\.reads)
            for replica in replicas { replica.health.setStatus(.notServing) }
            let failed = await states.next()
            guard case .transientFailure(let failure) = failed else {
                Issue.record("expected a transient failure, got \(String(describing: failed))")
                return
            }
            #expect(failure.code == .unavailable && failure.message.contains("is not serving"), "\(failure)")
            let error = try await #require(throws: RPCError.self) { try await client.categories.list() }
            #expect(error.code == .unavailable, "\(error)")
            #expect(replicas.map(\.reads) == answered)

            replicas[0].health.setStatus(.serving)
            #expect(await states.next() == .ready)
            #expect(try await Self.readsAnswered(4, client, by: replicas) == [4, 0])
            await client.close()
        }
    }

    @Test("with the health check off, a NOT_SERVING endpoint keeps its share")
    func healthCheckOff() async throws {
        let ports = try (0..<2).map { _ in try freeLoopbackPort() }
        try await withCountingReplicas(on: ports) { replicas in
            let client = try await CatalogClient.connect(to: ports.map(Self.local), configuration: Self.roundRobin(healthCheck: false))
            try await Self.readUntilEachAnswered(client, replicas)
            replicas[1].health.setStatus(.notServing)
            #expect(try await Self.readsAnswered(20, client, by: replicas) == [10, 10])
            await client.close()
        }
    }

    @Test("a server without the health service (UNIMPLEMENTED) counts as serving")
    func healthUnimplemented() async throws {
        try await withProbeServer { port, probe in
            let client = try await CatalogClient.connect(to: [Self.local(port)], configuration: Self.roundRobin())
            #expect(try await client.categories.list().isEmpty)
            #expect(probe.calls(CategoriesService.list) == 1)
            await client.close()
        }
    }

    @Test("an endpoint lost mid-run: reads and writes go on over the others, none fails, each write applied once")
    func lostMidRun() async throws {
        let ports = try (0..<3).map { _ in try freeLoopbackPort() }
        try await withCountingReplicas(on: Array(ports.prefix(2))) { survivors in
            let client = try await CatalogClient.connect(to: ports.map(Self.local), configuration: Self.roundRobin())
            let load = CallLoad(client)
            let gone = try await withCountingReplica(on: ports[2]) { doomed in
                try await Self.readUntilEachAnswered(client, survivors + [doomed])
                for await _ in load.rounds where doomed.writes > 0 { break }
                return doomed
            }  // stopped here, gracefully, while the load goes on
            var roundsAfter = 0
            for await _ in load.rounds {
                roundsAfter += 1
                if roundsAfter == 10 { break }
            }
            let (writes, failures) = await load.stop()
            #expect(failures.isEmpty, "\(failures)")
            #expect((survivors + [gone]).map(\.writes).reduce(0, +) == writes, "each write applied once")
            #expect(try await Self.readsAnswered(20, client, by: survivors) == [10, 10])
            await client.close()
        }
    }

    @Test("every endpoint down: a call fails UNAVAILABLE well within its timeout, the state is a transient failure, and connect throws")
    func allDown() async throws {
        let endpoints = try (0..<2).map { _ in Self.local(try freeLoopbackPort()) }
        let configuration = Self.roundRobin(retry: CatalogClient.Configuration.quickReconnect.retry)
        let client = CatalogClient(lazilyConnectingTo: endpoints, configuration: configuration)
        let clock = ContinuousClock()
        let start = clock.now
        let read = try await #require(throws: RPCError.self) { try await client.categories.list(options: .timeout(.seconds(10))) }
        #expect(read.code == .unavailable, "\(read)")
        #expect(clock.now - start < .seconds(5))
        guard case .transientFailure(let failure) = client.connectionState else {
            Issue.record("expected a transient failure, got \(client.connectionState)")
            return
        }
        #expect(failure.code == .unavailable && failure.message.contains("none of 2 endpoints is ready"), "\(failure)")
        let write = try await #require(throws: RPCError.self) { try await client.categories.create(name: "Offline") }
        #expect(write.code == .unavailable, "\(write)")
        await client.close()

        let connect = try await #require(throws: RPCError.self) {
            try await CatalogClient.connect(to: endpoints, configuration: configuration)
        }
        #expect(connect.code == .unavailable, "\(connect)")
    }

    @Test("close() closes every connection, ends each endpoint's reconnection, and the states end with shutdown")
    func close() async throws {
        let ports = try (0..<2).map { _ in try freeLoopbackPort() }
        let down = try freeLoopbackPort()
        try await withCountingReplicas(on: ports) { replicas in
            let client = try await CatalogClient.connect(to: (ports + [down]).map(Self.local), configuration: Self.roundRobin())
            var states = client.connectionStates.makeAsyncIterator()
            #expect(await states.next() == .ready)
            try await Self.readUntilEachAnswered(client, replicas)
            await client.close()
            #expect(await states.next() == .shutdown)
            #expect(await states.next() == nil)
            let closed = try await #require(throws: RPCError.self) { try await client.categories.list() }
            #expect(closed.code == .cancelled)
        }

        let lazy = CatalogClient(lazilyConnectingTo: [Self.local(down)], configuration: Self.roundRobin())
        var states = lazy.connectionStates.makeAsyncIterator()
        #expect(await states.next() == .idle)
        await lazy.close()
        #expect(await states.next() == .shutdown)
        #expect(await states.next() == nil)
    }

    // MARK: Observing the rotation

    /// Reads until each of `replicas` has answered one more: each is then in the rotation.
    private static func readUntilEachAnswered(_ client: CatalogClient, _ replicas: [CountingReplica]) async throws {
        let before = replicas.map(\.reads)
        while zip(replicas, before).contains(where: { $0.reads == $1 }) {
            _ = try await client.categories.list()
        }
    }

    /// Reads `rounds` at a time until `replica` answers none of them: it has left the rotation
    /// (in it, it would answer one of every `rounds`, the number of endpoints).
    private static func readUntilLeftOut(_ client: CatalogClient, _ replica: CountingReplica, rounds: Int) async throws {
        while true {
            let before = replica.reads
            for _ in 0..<rounds { _ = try await client.categories.list() }
            if replica.reads == before { return }
        }
    }

    /// Makes `count` reads and returns how many of them each of `replicas` answered.
    private static func readsAnswered(_ count: Int, _ client: CatalogClient, by replicas: [CountingReplica]) async throws -> [Int] {
        let before = replicas.map(\.reads)
        for _ in 0..<count { _ = try await client.categories.list() }
        return zip(replicas, before).map { $0.reads - $1 }
    }
}

/// A read then a write, again and again, from a task of its own, until `stop()`; each round
/// is told to `rounds`.
private final class CallLoad: Sendable {
    let rounds: AsyncStream<Void>
    private let stopped: Flag
    private let task: Task<(writes: Int, failures: [String]), Never>

    init(_ client: CatalogClient) {
        let (rounds, round) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let stopped = Flag()
        self.rounds = rounds
        self.stopped = stopped
        self.task = Task {
            var (writes, failures) = (0, [String]())
            while !stopped.isSet {
                do {
                    _ = try await client.categories.list()
                    _ = try await client.categories.create(name: "Load \(writes)")
                    writes += 1
                } catch {
                    failures.append("\(error)")
                }
                round.yield()
            }
            round.finish()
            return (writes, failures)
        }
    }

    /// Stops after the round under way; returns the writes that succeeded and the errors of
    /// the calls that failed.
    func stop() async -> (writes: Int, failures: [String]) {
        stopped.set()
        return await task.value
    }

    private final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .relaxed) }
        func set() { value.store(true, ordering: .relaxed) }
    }
}
