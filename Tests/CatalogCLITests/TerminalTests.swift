import CatalogKit
import Foundation
import Testing

@Suite("catalog in a real terminal (tmux)")
struct TerminalTests {
    @Test("on a terminal the default output is an aligned table with a bold header and colour swatches")
    func table() async throws {
        try await withTestServer(demo: true) { server in
            try await withTerminal(try CLISandbox()) { terminal in
                try await terminal.run("catalog category list --server \(server.address)")
                let (screen, status) = try await terminal.waitForExit()
                #expect(status == 0, "\(screen)")
                let lines = screen.split(separator: "\n").map(String.init)
                let header = try #require(lines.first { $0.hasPrefix("ID ") })
                #expect(header.split(separator: " ") == ["ID", "NAME", "ITEMS", "COLOR", "ICON", "DEFAULT"])
                let rows = lines.filter { $0.contains("● #") }
                #expect(rows.count == 9)
                #expect(rows.contains { $0.contains("IA Générative") && $0.contains("#2196F3") })
                // Aligned: every swatch in the same column, accented names included.
                let columns = Set(rows.map { $0.distance(from: $0.startIndex, to: $0.firstIndex(of: "●")!) })
                #expect(columns.count == 1, "\(screen)")

                let colored = try await terminal.screen(colors: true)
                #expect(colored.contains("\u{1B}[1mID"), "a bold header")
                #expect(colored.contains("38;2;233;30;99"), "Family's swatch in #E91E63")
            }
        }
    }

    @Test("NO_COLOR: the same table without any colour or bold")
    func noColor() async throws {
        try await withTestServer { server in
            try await withTerminal(try CLISandbox(), environment: ["NO_COLOR": "1"]) { terminal in
                try await terminal.run("catalog category list --server \(server.address)")
                let (screen, status) = try await terminal.waitForExit()
                #expect(status == 0 && screen.contains("● #E91E63"), "\(screen)")
                let colored = try await terminal.screen(colors: true)
                #expect(!colored.contains("38;2;"), "no swatch colour: \(colored)")
                #expect(!colored.contains("\u{1B}[1m"), "no bold: \(colored)")
            }
        }
    }

    @Test("delete asks on a terminal, after a dry run: 'n' keeps the category, 'y' deletes it", arguments: ["n", "y"])
    func confirmation(answer: String) async throws {
        try await withTestServer { server in
            let books = try await server.client.categories.create(name: "Books")
            for title in ["One", "Two", "Three"] { _ = try await server.client.items.create(title: title, categoryId: books.id) }
            try await withTerminal(try CLISandbox()) { terminal in
                try await terminal.run("catalog category delete Books --items unassign --server \(server.address)")
                let question = try await terminal.waitFor { $0.contains("[y/N]") }
                #expect(question.contains("Delete category 'Books' (id 5); 3 items would be unassigned? [y/N]"), "\(question)")
                #expect(try await server.client.categories.get(id: books.id).itemCount == 3, "nothing done before the answer")

                try await terminal.type(answer)
                try await terminal.press("Enter")
                let (screen, status) = try await terminal.waitForExit()
                #expect(status == 0, "\(screen)")
                let remaining = try await server.client.categories.list().map(\.name)
                if answer == "y" {
                    #expect(screen.contains("Deleted category 'Books' (id 5); 3 items unassigned."), "\(screen)")
                    #expect(!remaining.contains("Books"))
                } else {
                    #expect(screen.contains("Nothing changed."), "\(screen)")
                    #expect(remaining.contains("Books"))
                }
            }
        }
    }

    @Test("importing a large file shows a progress bar on standard error, ending at 100 %")
    func progressBar() async throws {
        try await withTestServer { server in
            let sandbox = try CLISandbox()
            let records = (0..<1500).map { ##"{"name": "Imported \##($0)", "color": "#336699", "position": \##($0), "isDefault": false}"## }
            let file = try sandbox.writeFile("big.json", #"{"format": "catalog.categories.v1", "categories": [\#(records.joined(separator: ","))]}"#)
            try await withTerminal(sandbox) { terminal in
                try await terminal.run("catalog category import \(file) --batch-size 100 --server \(server.address)")
                let (screen, status) = try await terminal.waitForExit(timeout: .seconds(60))
                #expect(status == 0, "\(screen)")
                let bar = try #require(screen.split(separator: "\n").first { $0.hasPrefix("Importing  [") }, "\(screen)")
                #expect(bar.contains("100%") && bar.hasSuffix("1500/1500 categories"), "\(bar)")
                #expect(!bar.contains("░"), "a full bar: \(bar)")
                #expect(screen.contains("Imported 1500 categories: 1500 created, 0 updated, 0 unchanged, 0 deleted."))
            }
            #expect(try await server.client.categories.list().count == 1504)
        }
    }

    @Test("importing items shows a progress bar on standard error and the summary as a sentence")
    func itemImportProgressBar() async throws {
        try await withTestServer { server in
            let sandbox = try CLISandbox()
            let lines = (0..<3000).map { #"{"title": "Formation \#($0)", "categoryId": 1}"# }
            let file = try sandbox.writeFile("items.jsonl", lines.joined(separator: "\n") + "\n")
            try await withTerminal(sandbox) { terminal in
                try await terminal.run("catalog item import \(file) --server \(server.address)")
                let (screen, status) = try await terminal.waitForExit(timeout: .seconds(60))
                #expect(status == 0, "\(screen)")
                let bar = try #require(screen.split(separator: "\n").first { $0.hasPrefix("Importing  [") }, "\(screen)")
                #expect(bar.contains("100%") && bar.hasSuffix("3000/3000 items"), "\(bar)")
                #expect(screen.contains("Imported 3000 items (ids 1–3000) at catalog revision 2."), "\(screen)")
            }
            #expect(try await server.client.categories.get(id: 1).itemCount == 3000)
        }
    }
}
