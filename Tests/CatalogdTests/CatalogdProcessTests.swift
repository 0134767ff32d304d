import CatalogAPI
import CatalogKit
import CatalogdTestSupport
import ChildProcess
import Foundation
import RPCCore
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `catalogd` run as operators and test harnesses run it (CONTRACT.md §5), through `CatalogClient`.
@Suite("catalogd as a process")
struct CatalogdProcessTests {
    @Test("it logs exactly one ready line naming its address, and answers Health checks")
    func readyAndHealthy() async throws {
        let catalogd = try await CatalogdProcess.start()
        defer { catalogd.kill() }

        let readyLines = catalogd.snapshot.readyLines
        #expect(readyLines.count == 1)
        #expect(readyLines.first?.contains("catalogd ready on 127.0.0.1:\(catalogd.port)") == true)
        #expect(readyLines.first?.hasSuffix("(plaintext)") == true, "without --tls-cert the ready line says plaintext")

        let catalog = try await CatalogClient.connect(port: catalogd.port)
        #expect(try await catalog.health.check() == .serving)
        #expect(try await catalog.health.check(service: Health.serviceName) == .serving)
        let error = try await #require(throws: RPCError.self) {
            try await catalog.health.check(service: "no.such.v1.Service")
        }
        #expect(error.code == .notFound)
        await catalog.close()

        catalogd.send(SIGTERM)
        let exit = try await catalogd.waitForExit()
        #expect(exit.status == 0 && !exit.killedBySignal, "\(exit)")
        #expect(catalogd.snapshot.readyLines.count == 1, "one ready line over the whole run")
    }

    @Test("a signal makes it stop gracefully: exit status 0 and 'server stopped'", arguments: StopSignal.all)
    func gracefulExit(signal: StopSignal) async throws {
        let catalogd = try await CatalogdProcess.start()
        defer { catalogd.kill() }

        catalogd.send(signal.number)
        let exit = try await catalogd.waitForExit()
        #expect(exit.status == 0 && !exit.killedBySignal, "\(exit)")
        #expect(exit.stderr.contains("server stopped"), "\(exit)")
    }

    @Test("SIGTERM with a Health.watch open: the watch sees NOT_SERVING then UNAVAILABLE, and catalogd exits 0 without waiting out the grace period")
    func gracefulExitWithOpenStream() async throws {
        let grace = 10
        let catalogd = try await CatalogdProcess.start(extraArguments: ["--shutdown-grace-seconds", "\(grace)"])
        defer { catalogd.kill() }
        let catalog = try await CatalogClient.connect(port: catalogd.port)

        let watch = try await catalog.health.watch()
        let (firstUpdate, firstUpdateSink) = AsyncStream<ServingStatus>.makeStream()
        let watcher = Task { () -> WatchOutcome in
            var outcome = WatchOutcome()
            do {
                for try await update in watch {
                    outcome.updates.append(update.status)
                    firstUpdateSink.yield(update.status)
                    firstUpdateSink.finish()
                }
            } catch {
                outcome.error = RPCError(mapping: error)
            }
            firstUpdateSink.finish()
            return outcome
        }
        defer { watcher.cancel() }
        let first = try await withTimeout(.seconds(10), "the first Health.watch update") {
            await firstUpdate.first { _ in true }
        }
        #expect(first == .serving)

        let clock = ContinuousClock()
        let signalled = clock.now
        catalogd.send(SIGTERM)
        let exit = try await catalogd.waitForExit(timeout: .seconds(grace + 15))
        let took = clock.now - signalled
        #expect(exit.status == 0 && !exit.killedBySignal, "\(exit)")
        // The watch ends at shutdown, so nothing is left to drain.
        #expect(took < .seconds(grace), "took \(took) with a \(grace) s grace period")

        let outcome = try await withTimeout(.seconds(10), "the Health.watch stream to end after catalogd exited") {
            await withTaskCancellationHandler { await watcher.value } onCancel: { watcher.cancel() }
        }
        #expect(outcome.updates == [.serving, .notServing], "\(outcome)")
        #expect(outcome.error?.code == .unavailable, "\(outcome)")
        await catalog.close()
    }

    @Test("an address in use: a second catalogd exits non-zero, saying it cannot listen on that address")
    func addressInUse() async throws {
        let first = try await CatalogdProcess.start()
        defer { first.kill() }

        let directory = try CatalogdProcess.makeDirectory()
        let second = try CatalogdProcess(
            arguments: ["--address", "127.0.0.1:\(first.port)", "--database", directory.appendingPathComponent("catalog.sqlite").path],
            port: first.port,
            directory: directory
        )
        defer { second.kill() }
        let exit = try await second.waitForExit()
        #expect(exit.status != 0, "\(exit)")
        #expect(exit.stderr.contains("127.0.0.1:\(first.port)"), "\(exit)")
        #expect(exit.stderr.contains("cannot listen"), "\(exit)")
        #expect(second.snapshot.readyLines.isEmpty, "\(exit)")

        let catalog = try await CatalogClient.connect(port: first.port)
        #expect(try await catalog.health.check() == .serving, "the first catalogd still serves")
        await catalog.close()
    }

    @Test("a database it cannot open: it exits non-zero, naming the path")
    func unreadableDatabase() async throws {
        let path = "/nonexistent-dir-\(UUID().uuidString)/x.sqlite"
        let port = try freeLoopbackPort()
        let catalogd = try CatalogdProcess(
            arguments: ["--address", "127.0.0.1:\(port)", "--database", path],
            port: port,
            directory: try CatalogdProcess.makeDirectory()
        )
        defer { catalogd.kill() }
        let exit = try await catalogd.waitForExit()
        #expect(exit.status != 0 && !exit.killedBySignal, "\(exit)")
        #expect(exit.stderr.contains(path), "\(exit)")
        #expect(catalogd.snapshot.readyLines.isEmpty, "\(exit)")
    }

    @Test("CATALOG_ADDRESS is honoured when --address is absent")
    func addressFromEnvironment() async throws {
        let port = try freeLoopbackPort()
        let directory = try CatalogdProcess.makeDirectory()
        let catalogd = try CatalogdProcess(
            arguments: ["--database", directory.appendingPathComponent("catalog.sqlite").path],
            environment: ["CATALOG_ADDRESS": "127.0.0.1:\(port)"],
            port: port,
            directory: directory
        )
        defer { catalogd.kill() }
        let ready = try await catalogd.waitUntilReady()
        #expect(ready.readyLines.first?.contains("catalogd ready on 127.0.0.1:\(port)") == true, "\(ready.stderr)")

        let catalog = try await CatalogClient.connect(port: port)
        #expect(try await catalog.health.check() == .serving)
        await catalog.close()

        catalogd.send(SIGTERM)
        let exit = try await catalogd.waitForExit()
        #expect(exit.status == 0, "\(exit)")
    }

    @Test("an invalid --address exits non-zero with a usage message")
    func invalidAddress() async throws {
        let directory = try CatalogdProcess.makeDirectory()
        let catalogd = try CatalogdProcess(
            arguments: ["--address", "nonsense", "--database", directory.appendingPathComponent("catalog.sqlite").path],
            port: 0,
            directory: directory
        )
        defer { catalogd.kill() }
        let exit = try await catalogd.waitForExit()
        #expect(exit.status != 0 && !exit.killedBySignal, "\(exit)")
        #expect(exit.stderr.contains("address must be HOST:PORT"), "\(exit)")
        #expect(exit.stderr.contains("'nonsense'"), "\(exit)")
        #expect(exit.stderr.contains("Usage: catalogd"), "\(exit)")
    }
}

/// A signal that asks catalogd to stop gracefully.
struct StopSignal: Sendable, CustomTestStringConvertible {
    let name: String
    let number: Int32

    static let all = [StopSignal(name: "SIGTERM", number: SIGTERM), StopSignal(name: "SIGINT", number: SIGINT)]

    var testDescription: String { name }
}

/// What a Health.watch consumer saw before the stream ended.
struct WatchOutcome: Sendable, CustomStringConvertible {
    var updates: [ServingStatus] = []
    /// The error the stream ended with; `nil` when it ended cleanly.
    var error: RPCError?

    var description: String { "updates \(updates), then \(error.map { "error \($0)" } ?? "a clean end")" }
}

/// The result of `operation`, or an error naming `what` once `timeout` passed (cancelling `operation`).
func withTimeout<T: Sendable>(
    _ timeout: Duration,
    _ what: String,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: timeout)
            throw CatalogdProcessError("timed out after \(timeout) waiting for \(what)")
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}
