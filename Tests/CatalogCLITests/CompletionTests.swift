import CatalogKit
import Foundation
import Testing

@Suite("catalog shell completion")
struct CompletionTests {
    @Test("the scripts for bash, zsh and fish ask catalog itself for category and filter names", arguments: ["bash", "zsh", "fish"])
    func scripts(shell: String) async throws {
        let result = try await CLISandbox().run(["--generate-completion-script", shell])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("---completion category get -- positional@0"), "\(shell)")
        #expect(result.stdout.contains("---completion filter watch -- positional@0"), "\(shell)")
    }

    @Test("category and filter arguments complete from the server; nothing, quickly, when it is unreachable")
    func fromServer() async throws {
        try await withTestServer { server in
            _ = try await server.client.filters.define("levels", title: "Niveaux")
            let sandbox = try CLISandbox()
            func complete(_ command: [String], server address: String) async throws -> [String] {
                let words = ["catalog"] + command + ["--server", address, ""]
                // A loaded test machine may take longer than the default second.
                let result = try await sandbox.run(
                    ["---completion"] + command + ["--", "positional@0", "\(words.count - 1)", "0"] + words,
                    environment: ["CATALOG_COMPLETION_TIMEOUT": "20"])
                #expect(result.status == 0, "\(result)")
                return result.stdout.split(separator: "\n").map(String.init)
            }
            #expect(try await complete(["category", "get"], server: server.address) == ["1", "2", "3", "4", "Family", "Cars", "Games", "Sports"])
            #expect(try await complete(["filter", "watch"], server: server.address) == ["categories", "levels"])
            let start = ContinuousClock.now
            #expect(try await complete(["category", "get"], server: try unusedAddress()) == [])
            #expect(ContinuousClock.now - start < .seconds(5))
        }
    }

    @Test("in bash on a terminal, Tab offers the server's category names and filter ids")
    func bashTab() async throws {
        try await withTestServer(demo: true) { server in
            // Bash splits words at ':', which breaks `--server host:port` on the line: the
            // server comes from the environment here, as it would from a context.
            try await withTerminal(try CLISandbox(), environment: ["CATALOG_SERVER": server.address, "CATALOG_COMPLETION_TIMEOUT": "20"]) { terminal in
                try await terminal.run("source <(catalog --generate-completion-script bash)")
                _ = try await terminal.waitForExit()
                try await terminal.type("catalog category get D")
                try await terminal.press("Tab")
                try await terminal.press("Tab")
                let screen = try await terminal.waitFor { $0.contains("Développement") }
                let offered = try #require(screen.split(separator: "\n").first { $0.contains("Développement") })
                #expect(offered.split(separator: " ").sorted() == ["Data", "Design", "Développement"], "\(screen)")

                try await terminal.press("C-u")
                try await terminal.type("catalog filter watch cat")
                try await terminal.press("Tab")
                _ = try await terminal.waitFor { $0.contains("catalog filter watch categories") }
            }
        }
    }
}
