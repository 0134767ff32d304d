import CatalogKit
import Foundation
import TestSupport
import Testing

@Suite("catalog filter watch")
struct FilterWatchCommandTests {
    @Test("piped: one JSON event per line; --until selected=N exits 0 once another client selects N")
    func untilSelected() async throws {
        try await withTestServer { server in
            let sandbox = try CLISandbox()
            let watch = try CLIProcess(
                CLIBinary.url, arguments: ["filter", "watch", "categories", "--until", "selected=3", "--server", server.address],
                environment: sandbox.environment, stdin: nil)
            try await watch.waitForOutput { $0.contains(#""kind":"synced""#) }
            _ = try await server.client.filters.select("categories", optionId: 2)
            _ = try await server.client.filters.select("categories", optionId: 3)
            let result = try await watch.waitForExit(timeout: .seconds(30))
            #expect(result.status == 0, "\(result)")
            let events = try result.jsonLines()
            #expect(events.first?["kind"] as? String == "snapshot")
            #expect(events.dropFirst().first?["kind"] as? String == "synced")
            let states = events.compactMap { $0["state"] as? [String: Any] }
            #expect(states.last?["selectedId"] as? Int == 3)
            #expect(events.last?["kind"] as? String == "change")
            let revisions = events.compactMap { $0["state"] == nil ? nil : $0["revision"] as? Int }
            #expect(revisions == revisions.sorted() && Set(revisions).count == revisions.count, "no revision twice or out of order")
        }
    }

    @Test("--until presentation=collapsed, and a condition that already holds ends the watch at once")
    func untilPresentation() async throws {
        try await withTestServer { server in
            let sandbox = try CLISandbox()
            let already = try await sandbox.run(
                ["filter", "watch", "categories", "--until", "selected=all", "--until", "presentation=expanded", "--server", server.address])
            #expect(already.status == 0, "\(already)")
            #expect(try already.jsonLines().count == 1, "only the snapshot")

            let watch = try CLIProcess(
                CLIBinary.url, arguments: ["filter", "watch", "categories", "--until", "presentation=collapsed", "-o", "ndjson", "--server", server.address],
                environment: sandbox.environment, stdin: nil)
            try await watch.waitForOutput { $0.contains(#""kind":"synced""#) }
            let collapse = try await sandbox.run(["filter", "collapse", "categories", "--server", server.address])
            #expect(collapse.status == 0, "\(collapse)")
            let result = try await watch.waitForExit(timeout: .seconds(30))
            #expect(result.status == 0, "\(result)")
            #expect((try result.jsonLines().last?["state"] as? [String: Any])?["presentation"] as? String == "collapsed")
        }
    }

    @Test("--timeout: exit 124 when the --until condition never held, 0 without a condition")
    func timeout() async throws {
        try await withTestServer { server in
            let sandbox = try CLISandbox()
            let unmet = try await sandbox.run(
                ["filter", "watch", "categories", "--until", "selected=4", "--timeout", "10", "--server", server.address])
            #expect(unmet.status == 124, "\(unmet)")
            #expect(unmet.stderr.contains("selected=4 did not happen within 10 s"), "\(unmet)")
            #expect(try unmet.jsonLines().map { $0["kind"] as? String } == ["snapshot", "synced"])

            let plain = try await sandbox.run(["filter", "watch", "categories", "--timeout", "10", "--server", server.address])
            #expect(plain.status == 0, "\(plain)")
            #expect(try plain.jsonLines().first?["kind"] as? String == "snapshot")

            let badCondition = try await sandbox.run(["filter", "watch", "categories", "--until", "colour=red", "--server", server.address])
            #expect(badCondition.status == 2, "\(badCondition)")
            let missing = try await sandbox.run(["filter", "watch", "nothing", "--timeout", "5", "--server", server.address])
            #expect(missing.status == 69, "\(missing)")
        }
    }

    @Test("on a terminal the state is redrawn in place, and the watch resumes across a server restart")
    func liveView() async throws {
        let database = try TestDatabase()
        try await withTerminal(try CLISandbox()) { terminal in
            let port = try await withTestServer(database: database) { server in
                try await terminal.run("catalog filter watch categories --until selected=4 --server \(server.address)")
                let first = try await terminal.waitFor { $0.contains("live · revision") && $0.contains("selected: all") }
                #expect(first.contains("○ 3  Games"), "\(first)")

                _ = try await server.client.filters.select("categories", optionId: 3)
                let redrawn = try await terminal.waitFor { $0.contains("selected: 3 (Games)") }
                #expect(redrawn.contains("● 3  Games"), "\(redrawn)")
                #expect(redrawn.components(separatedBy: "categories · Categories").count == 2, "drawn once, in place: \(redrawn)")
                #expect(redrawn.components(separatedBy: "Sports").count == 2, "\(redrawn)")
                return server.port
            }
            // The server stopped: the view says so and keeps trying.
            _ = try await terminal.waitFor { $0.contains("reconnecting…") }

            try await withTestServer(database: database, port: port) { server in
                _ = try await server.client.filters.select("categories", optionId: 4)
                let (screen, status) = try await terminal.waitForExit(timeout: .seconds(30))
                #expect(status == 0, "\(screen)")
                #expect(screen.contains("● 4  Sports") && screen.contains("selected: 4 (Sports)"), "\(screen)")
                #expect(screen.contains("selected=4: reached."), "\(screen)")
                #expect(screen.components(separatedBy: "categories · Categories").count == 2, "still drawn once: \(screen)")
            }
        }
    }
}
