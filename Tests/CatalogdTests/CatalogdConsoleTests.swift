import CatalogAPI
import CatalogKit
import CatalogdTestSupport
import ChildProcess
import Foundation
import TestSupport
import Testing

/// The web console in real Chromium (Debian's `chromium` and `chromium-driver`, driven by
/// selenium from `Python/console_browser.py`), against a real catalogd: the demo catalog, the
/// chips and the shared filter across two browser contexts, the CLI and a Swift Watch, the
/// categories' management, the four screen states, tokens and roles, and the accessibility
/// tree. Screenshots of every screen go to `.build/console-screenshots`.
@Suite("catalogd's web console in Chromium", .timeLimit(.minutes(5)))
struct CatalogdConsoleTests {
    static func report(_ arguments: [String]) async throws -> [String: Any] {
        let directory = try #require(Bundle.module.url(forResource: "Python", withExtension: nil))
        let browser = try PythonProcess(scriptURL: directory.appendingPathComponent("console_browser.py"), arguments: arguments)
        let output = try await browser.readToEnd()
        let status = await browser.exitStatus()
        #expect(status == 0, "\(browser.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(output)) as? [String: Any], "\(browser.standardError)")
    }

    static var screenshots: String {
        get throws { try CatalogdProcess.packageRoot().appendingPathComponent(".build/console-screenshots").path }
    }

    @Test("the console shows the demo catalog, follows the shared filter live with a second page, the CLI and a Swift Watch, manages categories, and shows its four states")
    func console() async throws {
        let catalogd = try await CatalogdProcess.start(extraArguments: ["--seed-demo"])
        defer { catalogd.kill() }
        let cli = try CatalogdProcess.binary().deletingLastPathComponent().appendingPathComponent("catalog")
        let client = try await CatalogClient.connect(port: catalogd.port)
        let (selections, continuation) = AsyncStream<(revision: Int64, selected: Int64?)>.makeStream()
        let watching = Task {
            defer { continuation.finish() }
            for try await event in client.filters.watch("categories") {
                if let state = event.state { continuation.yield((event.revision, state.selectedId)) }
            }
        }
        defer { watching.cancel() }

        let report = try await Self.report([
            "open", "--port", "\(catalogd.port)", "--cli", cli.path, "--catalogd", try CatalogdProcess.binary().path,
            "--screenshots", try Self.screenshots,
        ])

        let render = try #require(report["render"] as? [String: Any])
        #expect(render["shown"] as? [Int] == render["expected"] as? [Int], "the first page as ListItems answers it")
        #expect((render["shown"] as? [Int])?.count == 20)
        #expect(render["range"] as? String == "1–20 of \(render["total"] as? Int ?? -1)")
        #expect(render["chips"] as? [String] == render["options"] as? [String], "an All chip, then the filter's options")
        // French formatting: a (narrow) no-break space groups the thousands and comes before €.
        let price = (render["firstPrice"] as? String ?? "").map { $0.isWhitespace ? " " : String($0) }.joined()
        #expect(price == "1 090,00 €", "\(render["firstPriceAmount"] ?? "")")

        let paging = try #require(report["paging"] as? [String: [Int]])
        #expect(paging["shown"] == paging["expected"] && paging["shown"]?.count == 20, "Next shows ListItems' second page")

        let chip = try #require(report["chipSelect"] as? [String: Any])
        #expect(chip["shown"] as? [Int] == chip["expected"] as? [Int], "the Design chip shows Design's items")
        #expect(chip["secondContext"] as? [String] == ["8"])
        #expect(chip["serverSelected"] as? Int == 8)
        let toggle = try #require(report["chipToggle"] as? [String: [String]])
        #expect(toggle["first"] == ["all"] && toggle["second"] == ["all"], "tapping the selected chip again clears it")
        let card = try #require(report["cardSelect"] as? [String: Any])
        #expect(card["first"] as? [String] == ["7"], "a card chosen in the second context shows in the first")
        let fromCLI = try #require(report["cliSelect"] as? [String: Any])
        #expect(fromCLI["first"] as? [String] == ["8"] && fromCLI["second"] as? [String] == ["8"])
        #expect(fromCLI["pageRevision"] as? Int == fromCLI["revision"] as? Int)
        #expect(fromCLI["announced"] as? [String] == ["Showing Design", "Categories: Design selected"], "the live regions announce a change made elsewhere")
        #expect(fromCLI["liveRegion"] as? [String] == ["polite", "status"])

        // The Swift client's Watch saw each selection made in the pages and by the CLI.
        let expected: [(revision: Int, selected: Int64?)] = [
            (chip["revision"] as? Int ?? -1, 8), (card["revision"] as? Int ?? -1, 7), (fromCLI["revision"] as? Int ?? -1, 8),
        ]
        var seen: [Int64: Int64?] = [:]
        for await selection in selections {
            seen[selection.revision] = selection.selected
            if selection.revision >= Int64(expected.map(\.revision).max() ?? 0) { break }
        }
        for (revision, selected) in expected {
            #expect(seen[Int64(revision)] == .some(selected), "revision \(revision) in the Swift Watch: \(seen)")
        }

        let collapse = try #require(report["collapse"] as? [String: Any])
        #expect(collapse["first"] as? String == "false" && collapse["second"] as? String == "false")
        #expect(collapse["gridHidden"] as? Bool == true)
        #expect(collapse["header"] as? String == "Design", "the header shows the selection")
        let expand = try #require(report["expand"] as? [String: String])
        #expect(expand["first"] == "true" && expand["second"] == "true", "the CLI's expand reaches both pages")

        let refused = try #require(report["refused"] as? [String: String])
        #expect(refused["message"] == "a category with this name already exists", "the server's message, on the name field")
        #expect(refused["invalid"] == "true")
        let created = try #require((report["created"] as? [String: Any])?["cli"] as? [[String: Any]])
        #expect(created.count == 1, "the category made in the page is in `catalog category list`")
        #expect(created.first?["color"] as? String == "#009688" && created.first?["icon"] as? String == "photo")
        let dryRun = try #require(report["deleteDryRun"] as? [String: Any])
        #expect(dryRun["unassign"] as? String == "This leaves 8 items without a category.")
        #expect(dryRun["deleteItems"] as? String == "This deletes 8 items.")
        #expect(dryRun["itemCountAfterCancel"] as? Int == 8, "a dry run and a cancel change nothing")
        let deleted = try #require(report["deleted"] as? [String: Any])
        #expect(deleted["counts"] as? String == "No item is affected.")
        #expect((deleted["cli"] as? [String])?.contains("Photographie") == false)
        #expect((deleted["cli"] as? [String])?.contains("Design") == true)

        let moved = try #require(report["moved"] as? [String: Any])
        var order = try #require(moved["before"] as? [Int])
        let data = try #require(order.firstIndex(of: 7))
        order.swapAt(data, data - 1)
        #expect(moved["after"] as? [Int] == order, "Move up put Data one place earlier")
        #expect(moved["page"] as? [Int] == order, "the page shows the server's new order")
        #expect(moved["focus"] as? String == "up 7", "focus stays on the button pressed")
        let edited = try #require(report["edited"] as? [String: Any])
        #expect(edited["refused"] as? String == "a category with this name already exists")
        #expect(edited["name"] as? String == "Management & RH")
        #expect(edited["revision"] as? Int == 2, "one change: the refused rename changed nothing")
        let merged = try #require(report["merged"] as? [String: Any])
        let mergeRefused = try #require(merged["refused"] as? [String: Any])
        #expect(mergeRefused["message"] as? String == "category 1 is a default category", "\(mergeRefused)")
        #expect(mergeRefused["confirmDisabled"] as? String == "true", "a refused dry run cannot be confirmed")
        #expect(merged["counts"] as? String == "This moves 19 items and deletes 2 categories.")
        #expect((merged["ids"] as? [Int]).map { !$0.contains(6) && !$0.contains(7) } == true)
        #expect(merged["target"] as? Int == 29, "IA Générative's 10 items and the merged 19")
        #expect((report["assigned"] as? [String: Any])?["categoryId"] as? Int == 8)
        let chart = try #require(report["chart"] as? [String: Any])
        let bars = try #require(chart["bars"] as? [String])
        let expectedBars = try #require(chart["expected"] as? [String])
        #expect(bars.count == expectedBars.count && zip(bars, expectedBars).allSatisfy { $0.hasPrefix($1 + " (") }, "\(bars) against \(expectedBars)")
        #expect((chart["summary"] as? String)?.contains("\(chart["itemCount"] as? Int ?? -1) items") == true)

        let states = try #require(report["states"] as? [String: [String: Any]])
        #expect(states["loading"]?["busy"] as? String == "true")
        #expect((states["loading"]?["skeletons"] as? Int ?? 0) > 0)
        #expect(states["loaded"]?["items"] as? Int == 20)
        #expect(states["empty"]?["text"] as? String == "No formation in Family yet.")
        #expect(states["error"]?["message"] as? String == "cannot reach the server")
        #expect(states["error"]?["role"] as? String == "alert")
        #expect(states["error"]?["retry"] as? String == "Retry")
        #expect(states["retried"]?["shown"] as? [Int] == states["retried"]?["expected"] as? [Int], "Retry loads once the server is back")
        #expect((states["retried"]?["shown"] as? [Int])?.isEmpty == false)
        #expect(states["reconnecting"]?["status"] as? String == "Reconnecting…", "the page shows the lost Watch")
        let resumed = try #require(states["resumed"])
        #expect(resumed["revision"] as? Int == resumed["expected"] as? Int, "the Watch resumed and the change after the restart shows")
        #expect(resumed["status"] as? String == "Live")

        let accessibility = try #require(report["accessibility"] as? [[String: Any]])
        #expect(accessibility.count == 4)
        for screen in accessibility {
            let name = screen["screen"] as? String ?? "?"
            #expect(screen["unnamed"] as? [String] == [], "unnamed controls on \(name)")
            let focus = screen["focus"] as? [[String: Any]] ?? []
            #expect(focus.count >= 4, "\(name): \(focus)")
            #expect(focus.allSatisfy { !($0["name"] as? String ?? "").isEmpty }, "\(name): every focused control has a name")
            if name != "delete dialog" {
                #expect(focus.prefix(4).map { $0["name"] as? String } == ["Skip to content", "Items", "Filters", "Categories"], "\(name)")
            }
        }
        let narrow = try #require(report["narrow"] as? [String: Int])
        #expect((narrow["scrollWidth"] ?? .max) <= (narrow["innerWidth"] ?? 0), "nothing is wider than a phone's window")
        #expect(report["errors"] as? [String] == [], "no script error in the page")
    }

    @Test("with tokens: the sign-in form refuses an unknown token; a reader sees everything and is told why it cannot write; a writer selects; an admin manages categories")
    func roles() async throws {
        let file = TestTokens.freshFilePath()
        try TestTokens.writeFile(
            TestTokens.fileJSON([("r", "reader", "reader-secret"), ("w", "writer", "writer-secret"), ("a", "admin", "admin-secret")]),
            to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let catalogd = try await CatalogdProcess.start(extraArguments: ["--tokens", file.path, "--seed-demo"])
        defer { catalogd.kill() }
        let report = try await Self.report([
            "tokens", "--port", "\(catalogd.port)", "--reader", "reader-secret", "--writer", "writer-secret", "--admin", "admin-secret",
            "--screenshots", try Self.screenshots,
        ])
        #expect(report["unknown"] as? String == "The server does not know this token.")
        let roles = try #require(report["roles"] as? [String: [String: Any]])
        for role in ["reader", "writer", "admin"] {
            let seen = try #require(roles[role], "\(role)")
            #expect(seen["label"] as? String == "Signed in as \(role)")
            #expect(seen["items"] as? Int == 20, "\(role) sees the items")
            #expect(seen["categories"] as? Int == 9, "\(role) sees the categories")
            #expect(seen["tokenKept"] as? Bool == true && seen["tokenAfterSignOut"] is NSNull, "\(role): the token lives in sessionStorage until sign-out")
        }
        let reader = try #require(roles["reader"])
        #expect(reader["chipDisabled"] as? String == "true")
        #expect(reader["chipReason"] as? String == "Needs the writer role: you are signed in as reader.")
        #expect(reader["announced"] as? String == reader["chipReason"] as? String)
        #expect(reader["revisionMoved"] as? Int == 0, "a reader's click changes nothing")
        #expect(reader["createReason"] as? String == "Needs the admin role: you are signed in as reader.")
        #expect(reader["created"] as? Bool == false)
        let writer = try #require(roles["writer"])
        #expect(writer["chipDisabled"] is NSNull)
        #expect(writer["revisionMoved"] as? Int == 2, "a writer selects and clears")
        #expect(writer["createReason"] as? String == "Needs the admin role: you are signed in as writer.")
        #expect(writer["created"] as? Bool == false)
        let admin = try #require(roles["admin"])
        #expect(admin["createDisabled"] is NSNull)
        #expect(admin["created"] as? Bool == true)
        #expect(report["errors"] as? [String] == [], "no script error in the page")
    }
}
