import CatalogdTestSupport
import ChildProcess
import Foundation
import Testing

/// A hostile HTTP/2 client (Python's `h2`) on one connection, without a token (Health and
/// Reflection need none), cannot make catalogd hold more than the connection's buffer budget,
/// and what it holds is freed when its requests or its reading stall.
@Suite("catalogd's memory against a client that pins it", .timeLimit(.minutes(3)))
struct MemoryPinningTests {
    @Test("200 requests each holding 1 MiB but one byte take no more than the budget; the others end RESOURCE_EXHAUSTED")
    func partialBodies() async throws {
        let catalogd = try await CatalogdProcess.start()
        defer { catalogd.kill() }
        let before = try residentMemoryKiB(of: catalogd.processIdentifier)
        let attacker = try Self.attacker(port: catalogd.port, ["--mode", "partial-bodies", "--streams", "200", "--bytes", "1048576"])
        defer { Task { await attacker.stop() } }
        let report = try await Self.report(from: attacker)
        let held = try residentMemoryKiB(of: catalogd.processIdentifier)
        // 200 MiB were sent; the default budget is 8 MiB.
        #expect(report.sent >= 200 * 1_048_575 - 8 * 1_048_576, "\(report)")
        #expect(held - before < 64 * 1024, "resident memory went from \(before) KiB to \(held) KiB while the client holds its calls")
        #expect(report.outcomes["status-8", default: 0] >= 190, "\(report)")
        #expect(report.outcomes["open", default: 0] + report.outcomes["status-8", default: 0] == 200, "\(report)")
    }

    @Test("requests that never end are DEADLINE_EXCEEDED after --request-body-timeout-seconds")
    func partialBodiesTimeOut() async throws {
        let catalogd = try await CatalogdProcess.start(extraArguments: ["--request-body-timeout-seconds", "0.5"])
        defer { catalogd.kill() }
        let attacker = try Self.attacker(
            port: catalogd.port, ["--mode", "partial-bodies", "--streams", "4", "--bytes", "100000", "--wait-ended", "20"])
        defer { Task { await attacker.stop() } }
        let report = try await Self.report(from: attacker)
        #expect(report.outcomes == ["status-4": 4], "\(report)")
    }

    @Test("a client with no flow-control window for its answers holds no more than the budget, and --send-stall-timeout-seconds frees the rest")
    func zeroWindow() async throws {
        let catalogd = try await CatalogdProcess.start()
        defer { catalogd.kill() }
        let attacker = try Self.attacker(port: catalogd.port, ["--mode", "zero-window", "--streams", "1024", "--wait-ended", "3"])
        defer { Task { await attacker.stop() } }
        let report = try await Self.report(from: attacker)
        // A Describe answer is about 23 KB: the 8 MiB budget keeps a few hundred, the rest are reset.
        let open = report.outcomes["open", default: 0]
        #expect((100...400).contains(open), "\(report)")
        #expect(report.outcomes["reset-11", default: 0] == 1024 - open, "\(report)")

        let stalling = try await CatalogdProcess.start(extraArguments: ["--send-stall-timeout-seconds", "0.5"])
        defer { stalling.kill() }
        let stalled = try Self.attacker(port: stalling.port, ["--mode", "zero-window", "--streams", "1024", "--wait-ended", "20"])
        defer { Task { await stalled.stop() } }
        let ended = try await Self.report(from: stalled)
        // Those within the budget are reset CANCEL once they stalled.
        #expect(ended.outcomes["open", default: 0] == 0, "\(ended)")
        #expect(ended.outcomes["reset-8", default: 0] >= 100, "\(ended)")
    }

    private struct Report: Decodable, CustomStringConvertible {
        var sent: Int
        var outcomes: [String: Int]
        var description: String { "sent \(sent) bytes, outcomes \(outcomes)" }
    }

    private static func attacker(port: Int, _ arguments: [String]) throws -> PythonProcess {
        guard let directory = Bundle.module.resourceURL?.appendingPathComponent("Python") else {
            throw PythonProcess.Failure(description: "the Python test resources are missing from the bundle")
        }
        return try PythonProcess(
            scriptURL: directory.appendingPathComponent("h2_pinning.py"), arguments: ["--target", "127.0.0.1:\(port)"] + arguments)
    }

    private static func report(from attacker: PythonProcess) async throws -> Report {
        let line = try await attacker.readLine(timeout: .seconds(120))
        do {
            return try JSONDecoder().decode(Report.self, from: Data(line.utf8))
        } catch {
            throw PythonProcess.Failure(description: "h2_pinning.py printed '\(line)': \(attacker.standardError)")
        }
    }
}
