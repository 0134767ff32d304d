import CatalogKit
import Foundation
import Testing

@Suite("catalog filter commands")
struct FilterCommandTests {
    @Test("define, select by id or title, toggle, collapse, expand, list")
    func unaryCommands() async throws {
        try await withTestServer { server in
            let sandbox = try CLISandbox()
            func run(_ arguments: [String]) async throws -> [String: Any] {
                let result = try await sandbox.run(["filter"] + arguments + ["--server", server.address])
                #expect(result.status == 0, "\(arguments): \(result)")
                return try result.jsonObject()
            }
            let defined = try await run(["define", "levels", "--title", "Niveaux", "--option", "1:Débutant", "--option", "2:Expert:star"])
            #expect((defined["options"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Débutant", "Expert"])
            #expect(try await run(["select", "levels", "expert"])["selectedId"] as? Int == 2)
            #expect(try await run(["select", "levels", "2", "--toggle"])["selectedId"] == nil)
            #expect(try await run(["select", "levels", "1"])["selectedId"] as? Int == 1)
            #expect(try await run(["select", "levels", "--all"])["selectedId"] == nil)
            #expect(try await run(["collapse", "levels"])["presentation"] as? String == "collapsed")
            #expect(try await run(["toggle", "levels"])["presentation"] as? String == "expanded")
            #expect(try await run(["expand", "levels"])["presentation"] as? String == "expanded")
            let list = try await run(["list"])
            #expect((list["filters"] as? [[String: Any]])?.compactMap { $0["filterId"] as? String } == ["categories", "levels"])
            #expect(try await server.client.filters.get("levels").revision == 7)

            let unknown = try await sandbox.run(["filter", "select", "levels", "9", "--server", server.address])
            #expect(unknown.status == 69 && unknown.stderr.contains("unknownOption"), "\(unknown)")
        }
    }

    @Test("filter get on a terminal-style table marks the selected option")
    func getTable() async throws {
        try await withTestServer { server in
            _ = try await server.client.filters.select("categories", optionId: 3)
            let result = try await CLISandbox().run(["filter", "get", "categories", "-o", "table", "--server", server.address])
            #expect(result.status == 0, "\(result)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("categories · Categories · expanded · revision ") == true, "\(result)")
            #expect(lines.first?.hasSuffix("selected: 3 (Games)") == true)
            #expect(lines.filter { $0.contains("●") } == ["  ● 3  Games"])
            #expect(lines.filter { $0.contains("○") }.count == 3)
        }
    }
}
