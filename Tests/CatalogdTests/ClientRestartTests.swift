import CatalogKit
import CatalogdTestSupport
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `CatalogClient` across a `catalogd` that dies mid-call and comes back on the same port and
/// database. The call is made once every thread of catalogd is stopped (SIGSTOP), and catalogd
/// is killed once the request sits unread at its socket, so the call is surely in flight.
@Suite("CatalogClient across a catalogd killed mid-call and restarted")
struct ClientRestartTests {
    private static var patientRetries: CatalogClient.Configuration {
        var configuration = CatalogClient.Configuration.defaults
        configuration.retry = RetryPolicy(maxAttempts: 40, backoff: Backoff(initial: .milliseconds(50), maximum: .milliseconds(250)))
        configuration.reconnectBackoff = Backoff(initial: .milliseconds(50), maximum: .milliseconds(250))
        return configuration
    }

    /// SIGKILLs `catalogd` (stopped or not), then starts a new one on its port and database.
    private static func restart(_ catalogd: CatalogdProcess) async throws -> CatalogdProcess {
        catalogd.send(SIGKILL)
        _ = try await catalogd.waitForExit()
        let next = try CatalogdProcess(
            arguments: ["--address", "127.0.0.1:\(catalogd.port)", "--database", catalogd.directory.appendingPathComponent("catalog.sqlite").path],
            port: catalogd.port,
            directory: catalogd.directory
        )
        try await next.waitUntilReady()
        return next
    }

    /// Sends SIGSTOP and waits until every thread of `catalogd` is stopped. `kill` only queues
    /// the signal: a thread running on the other core can still read a request before it stops.
    private static func stop(_ catalogd: CatalogdProcess, timeout: Duration = .seconds(30)) async throws {
        catalogd.send(SIGSTOP)
        let tasks = URL(fileURLWithPath: "/proc/\(catalogd.processIdentifier)/task")
        try await eventually(timeout: timeout, "catalogd stopped") {
            let threads = try FileManager.default.contentsOfDirectory(at: tasks, includingPropertiesForKeys: nil)
            return try threads.allSatisfy { thread in
                // The state follows the parenthesised command name: "pid (name) T ...".
                let stat = try String(contentsOf: thread.appendingPathComponent("stat"), encoding: .utf8)
                return stat.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).first == "T"
            }
        }
    }

    /// Waits until a connection that the server listening on `port` accepted holds bytes it has
    /// not read (`/proc/net/tcp`'s rx_queue): with the server stopped, the call's request.
    private static func waitForUnreadBytes(port: Int, timeout: Duration = .seconds(30)) async throws {
        let localPort = ":" + String(format: "%04X", port)
        try await eventually(timeout: timeout, "unread bytes at the server on port \(port)") {
            // Read to the end: /proc reports a size of 0, and a reader that trusts it stops at a page.
            let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/net/tcp"))
            defer { try? file.close() }
            let table = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
            return table.split(separator: "\n").dropFirst().contains { line in
                let fields = line.split(separator: " ")
                guard fields.count > 4, fields[1].hasSuffix(localPort), fields[3] == "01" else { return false }
                let queues = fields[4].split(separator: ":")
                return queues.count == 2 && Int(queues[1], radix: 16).map { $0 > 0 } == true
            }
        }
    }

    @Test("a read in flight when catalogd dies is retried on the restarted catalogd and succeeds")
    func readRetriedAcrossRestart() async throws {
        let first = try await CatalogdProcess.start()
        let client = try await CatalogClient.connect(port: first.port, configuration: Self.patientRetries)
        let books = try await client.categories.create(name: "Books")

        try await Self.stop(first)
        async let read = client.categories.get(id: books.id)
        try await Self.waitForUnreadBytes(port: first.port)  // the request sits unanswered
        let second = try await Self.restart(first)
        defer { second.kill() }

        let fetched = try await read
        #expect(fetched == books)
        #expect(try await client.categories.list().count == 5, "later calls use the new connection")
        await client.close()
    }

    @Test("a write in flight when catalogd dies fails with UNAVAILABLE and is not sent again")
    func writeNotRetriedAcrossRestart() async throws {
        let first = try await CatalogdProcess.start()
        let client = try await CatalogClient.connect(port: first.port, configuration: Self.patientRetries)
        // A call first, so the connection's own frames (SETTINGS and its ACK) are all read and
        // the only bytes that reach the stopped catalogd are the write's.
        _ = try await client.categories.list()

        try await Self.stop(first)
        async let write = client.categories.create(name: "Books")
        try await Self.waitForUnreadBytes(port: first.port)
        let second = try await Self.restart(first)
        defer { second.kill() }

        do {
            let created = try await write
            Issue.record("the write succeeded, so it was sent again: \(created)")
        } catch {
            #expect((error as? RPCError)?.code == .unavailable, "\(error)")
        }
        #expect(try await client.categories.list().contains { $0.name == "Books" } == false,
                "the restarted catalogd never received the write")
        #expect(try await client.categories.create(name: "Books").name == "Books", "the client reconnected")
        await client.close()
    }
}
