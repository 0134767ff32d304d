import CatalogKit
import Foundation
import Testing

@Suite("catalog call and catalog api")
struct CallCommandTests {
    @Test("call sends -d inline, from @file and from @- and prints the response as sent")
    func requestSources() async throws {
        try await withTestServer { server in
            let sandbox = try CLISandbox()
            let inline = try await sandbox.run(["call", "catalog.v1.Categories/Get", "-d", #"{"id": 2}"#, "--server", server.address])
            #expect(inline.status == 0, "\(inline)")
            #expect(try inline.jsonObject()["name"] as? String == "Cars")

            let file = try sandbox.writeFile("create.json", #"{"name": "Books", "icon": "book"}"#)
            let fromFile = try await sandbox.run(["call", "/catalog.v1.Categories/Create", "-d", "@\(file)", "--server", server.address])
            #expect(fromFile.status == 0, "\(fromFile)")
            let created = try fromFile.jsonObject()
            #expect(created["name"] as? String == "Books")
            let id = try #require(created["id"] as? Int)
            #expect(try await server.client.categories.get(id: Int64(id)).icon == "book")

            let fromStdin = try await sandbox.run(
                ["call", "catalog.v1.Categories/Get", "-d", "@-", "-o", "ndjson", "--server", server.address], stdin: #"{"id": \#(id)}"#)
            #expect(fromStdin.status == 0, "\(fromStdin)")
            #expect(try fromStdin.jsonLines().map { $0["name"] as? String } == ["Books"])
        }
    }

    @Test("call reports the server's errors with their exit status; an unknown method is UNIMPLEMENTED (76)")
    func errors() async throws {
        try await withTestServer { server in
            let sandbox = try CLISandbox()
            let missing = try await sandbox.run(["call", "catalog.v1.Categories/Get", "-d", #"{"id": 99}"#, "--server", server.address])
            #expect(missing.status == 69, "\(missing)")
            let unknown = try await sandbox.run(["call", "catalog.v1.Nothing/Here", "--server", server.address])
            #expect(unknown.status == 76, "\(unknown)")
            #expect(unknown.stderr.contains("UNIMPLEMENTED"))
            let unreadable = try await sandbox.run(["call", "catalog.v1.Categories/Get", "-d", "@/nonexistent/request.json", "--server", server.address])
            #expect(unreadable.status == 2, "\(unreadable)")
        }
    }

    @Test("call of a streaming method prints one JSON object per message, until --max-time (then DEADLINE_EXCEEDED: 68)")
    func streaming() async throws {
        try await withTestServer { server in
            let result = try await CLISandbox().run(
                ["call", "catalog.v1.Filters/Watch", "-d", #"{"filterId": "categories"}"#, "--max-time", "10", "--server", server.address])
            #expect(result.status == 68, "\(result)")
            let events = try result.jsonLines()
            #expect(events.map { $0["kind"] as? String } == ["snapshot", "synced"])
            let state = try #require(events.first?["state"] as? [String: Any])
            #expect(state["filterId"] as? String == "categories")
        }
    }

    @Test("api list shows every method of the contract with its kind and role")
    func apiList() async throws {
        try await withTestServer { server in
            let sandbox = try CLISandbox()
            let result = try await sandbox.run(["api", "list", "-o", "ndjson", "--server", server.address])
            #expect(result.status == 0, "\(result)")
            let methods = try result.jsonLines()
            let contract = try await server.client.reflection.describe()
            #expect(methods.map { $0["path"] as? String } == contract.services.flatMap(\.methods).map(\.path))
            let watch = try #require(methods.first { $0["path"] as? String == "/catalog.v1.Filters/Watch" })
            #expect(watch["kind"] as? String == "server streaming")
            #expect(watch["role"] as? String == "reader")

            let table = try await sandbox.run(["api", "list", "catalog.v1.Filters", "-o", "table", "--server", server.address])
            #expect(table.stdout.contains("/catalog.v1.Filters/Select") && !table.stdout.contains("/catalog.v1.Catalog/"), "\(table)")
        }
    }

    @Test("api describe shows a method's fields from its JSON Schema")
    func apiDescribe() async throws {
        try await withTestServer { server in
            let sandbox = try CLISandbox()
            let table = try await sandbox.run(["api", "describe", "catalog.v1.Categories/Create", "-o", "table", "--server", server.address])
            #expect(table.status == 0, "\(table)")
            let nameLine = try #require(table.stdout.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("name ") })
            #expect(nameLine.contains("string") && nameLine.contains("required"), "\(table)")
            #expect(table.stdout.contains("content types: application/grpc, application/grpc+json, application/grpc+cbor"), "\(table)")

            let json = try await sandbox.run(["api", "describe", "catalog.v1.Categories/Create", "--server", server.address])
            let request = try #require(try json.jsonObject()["request"] as? [String: Any])
            #expect(request["required"] as? [String] == ["name"])
            #expect(try json.jsonObject()["contentTypes"] as? [String] == ["application/grpc", "application/grpc+json", "application/grpc+cbor"])

            let unknown = try await sandbox.run(["api", "describe", "catalog.v1.Categories/Nope", "--server", server.address])
            #expect(unknown.status == 69, "\(unknown)")
        }
    }
}
