import CatalogKit
import CatalogdTestSupport
import ChildProcess
import Foundation
import RPCCore
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGTERM ends catalogd within its grace period whatever its calls wait on.
@Suite("catalogd shutdown grace period", .timeLimit(.minutes(2)))
struct CatalogdShutdownTests {
    @Test("SIGTERM while a write waits for SQLite's lock: the write is answered UNAVAILABLE at the end of the grace period and catalogd exits 0 then, counting it")
    func writeCutAtGraceEnd() async throws {
        let metricsPort = try freeLoopbackPort()
        let catalogd = try await CatalogdProcess.start(
            extraArguments: ["--shutdown-grace-seconds", "1", "--metrics-address", "127.0.0.1:\(metricsPort)"])
        defer { catalogd.kill() }
        // Another process holds the write lock, which catalogd's write waits for (SQLite's busy timeout, 5 s).
        let directory = try #require(Bundle.module.url(forResource: "Python", withExtension: nil))
        let lock = try PythonProcess(
            scriptURL: directory.appendingPathComponent("sqlite_write_lock.py"),
            arguments: [catalogd.directory.appendingPathComponent("catalog.sqlite").path])
        #expect(try await lock.readLine() == "locked", "\(lock.standardError)")

        var configuration = CatalogClient.Configuration.defaults
        configuration.retry = .none
        let client = try await CatalogClient.connect(port: catalogd.port, configuration: configuration)
        let create = Task { try await client.categories.create(name: "Blocked") }
        try await eventually("the write to be under way") {
            try MetricsScrape.fetch(port: metricsPort).samples["rpc_server_streams"] == 1
        }
        let signalled = ContinuousClock.now
        catalogd.send(SIGTERM)
        let error = try await #require(throws: RPCError.self) { try await create.value }
        #expect(error.code == .unavailable)
        #expect(error.message.contains("grace period"), "\(error)")
        let exit = try await catalogd.waitForExit()
        let took = ContinuousClock.now - signalled
        #expect(exit.status == 0 && !exit.killedBySignal, "\(exit)")
        // The lock is still held: catalogd did not wait for the write, which would end after 5 s.
        #expect(took < .seconds(4), "took \(took)")
        let stopped = exit.stderr.split(separator: "\n").filter { $0.contains("server stopped") }
        #expect(stopped.count == 1 && stopped[0].contains("calls_cut=1"), "\(exit)")
        await lock.stop()
        await client.close()
    }
}
