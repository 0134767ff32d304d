import CatalogCLI
import CatalogKit
import Foundation
import Testing

/// What a malicious server sends never drives the user's terminal: every output mode shows
/// its control characters as codes, or escapes them as JSON and YAML do; and a response that
/// does not decode is INTERNAL.
@Suite("catalog against a hostile server")
struct HostileServerTests {
    /// A command against the hostile server, and a piece of what it must print.
    struct Run: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        /// Expected on standard output (or standard error when `onStandardError`).
        var shows: String
        var onStandardError = false
        var status: Int32 = 0
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let runs = [
        Run(arguments: ["category", "list", "-o", "table"], shows: "Evil\\u{1B}]2;pwned\\u{07}"),
        Run(arguments: ["category", "list", "-o", "wide"], shows: "Evil\\u{1B}]2;pwned\\u{07}"),
        Run(arguments: ["category", "list", "-o", "json"], shows: #""Evil\u001b]2;pwned\u0007\u001b[2J\u001b[31m\u009b1m\u007f\r\tend\nline""#),
        Run(arguments: ["category", "list", "-o", "ndjson"], shows: #"\u009b1m\u007f"#),
        Run(arguments: ["category", "list", "-o", "yaml"], shows: #"name: "Evil\u001b]2;pwned\u0007"#),
        Run(arguments: ["item", "list", "-o", "wide"], shows: "Evil\\u{1B}]2;pwned\\u{07}"),
        Run(arguments: ["item", "list", "-o", "table"], shows: "next page: --page-token \(HostileText.shown) (or --all)", onStandardError: true),
        Run(arguments: ["health", "-o", "table"], shows: "error: the server is \(HostileText.shown)", onStandardError: true, status: 78),
        Run(arguments: ["filter", "get", "hostile", "-o", "table"], shows: "selected: 1 (\(HostileText.shown))"),
        Run(arguments: ["filter", "get", "hostile", "-o", "yaml"], shows: #"title: "Evil\u001b]2;pwned"#),
        Run(
            arguments: ["category", "get", "1"], shows: "error: NOT_FOUND: \(HostileText.shown)\n  reason: \(HostileText.shown)\n  field: \(HostileText.shown)\n",
            onStandardError: true, status: 69),
        Run(arguments: ["filter", "watch", "hostile", "-o", "table"], shows: "watch interrupted (UNAVAILABLE: \(HostileText.shown)); resuming", onStandardError: true, status: 69),
        Run(arguments: ["filter", "watch", "hostile", "-o", "ndjson"], shows: #""title":"Evil\u001b]2;pwned"#, status: 69),
    ]

    @Test("no control character but a line break reaches standard output or standard error, in any output mode", arguments: runs)
    func noControlCharacters(run: Run) async throws {
        try await withHostileServer { address in
            let result = try await CLISandbox().run(run.arguments + ["--server", address])
            #expect(result.status == run.status, "\(result)")
            #expect((run.onStandardError ? result.stderr : result.stdout).contains(run.shows), "\(result)")
            #expect(HostileText.controlCharacters(in: result.stdout).isEmpty, "\(result)")
            #expect(HostileText.controlCharacters(in: result.stderr).isEmpty, "\(result)")
        }
    }

    @Test("on a terminal, the watch view and its status line show the escapes as text and the window keeps its title")
    func liveView() async throws {
        try await withHostileServer { address in
            try await withTerminal(try CLISandbox()) { terminal in
                let title = try await terminal.paneTitle()
                try await terminal.run("catalog filter watch hostile --server \(address)")
                let (screen, status) = try await terminal.waitForExit()
                #expect(status == 69, "\(screen)")
                #expect(screen.contains("Evil\\u{1B}]2;pwned\\u{07}"), "\(screen)")
                #expect(screen.contains("$ catalog filter watch hostile"), "the screen was not cleared: \(screen)")
                #expect(try await terminal.paneTitle() == title)
            }
        }
    }

    @Test("on a terminal, the confirmation question and the sentence after it show the escapes as text")
    func confirmation() async throws {
        try await withHostileServer { address in
            try await withTerminal(try CLISandbox()) { terminal in
                let title = try await terminal.paneTitle()
                try await terminal.run("catalog item delete 1 --server \(address)")
                _ = try await terminal.waitFor { $0.contains("[y/N]") }
                try await terminal.type("y")
                try await terminal.press("Enter")
                let (screen, status) = try await terminal.waitForExit()
                #expect(status == 0, "\(screen)")
                #expect(screen.contains("Delete item 1 'Evil\\u{1B}]2;pwned\\u{07}"), "\(screen)")
                #expect(screen.contains("Deleted item 1 'Evil\\u{1B}]2;pwned\\u{07}"), "\(screen)")
                #expect(try await terminal.paneTitle() == title)
            }
        }
    }

    @Test("a completion candidate holding a control character is left out")
    func completion() async throws {
        try await withHostileServer { address in
            let words = ["catalog", "category", "get", "--server", address, ""]
            let result = try await CLISandbox().run(
                ["---completion", "category", "get", "--", "positional@0", "\(words.count - 1)", "0"] + words,
                environment: ["CATALOG_COMPLETION_TIMEOUT": "20"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "1\n", "\(result)")
        }
    }

    @Test("a response that does not decode is INTERNAL (77), not INVALID_ARGUMENT", arguments: [
        ["category", "stats"], ["filter", "watch", "garbage", "-o", "ndjson"], ["call", "catalog.v1.Filters/Watch", "-d", #"{"filterId": "garbage"}"#],
    ])
    func undecodableResponse(arguments: [String]) async throws {
        try await withHostileServer { address in
            let result = try await CLISandbox().run(arguments + ["--server", address])
            #expect(result.status == 77, "\(result)")
            #expect(result.stderr.hasPrefix("error: INTERNAL: the server's response"), "\(result)")
        }
    }
}
