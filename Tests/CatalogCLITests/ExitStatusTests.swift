import CatalogKit
import Foundation
import Testing

@Suite("catalog exit statuses and error messages")
struct ExitStatusTests {
    @Test(
        "usage errors exit 2 with a usage message",
        arguments: [
            ["item", "frobnicate"], ["item", "list", "-o", "xml"], ["item", "get"], ["item", "get", "seven"],
            ["category", "move", "Cars"], ["item", "list", "--max-time", "0"], ["call", "not-a-method"],
            ["call", "catalog.v1.Categories/Get", "-d", "{\"id\": "], ["item", "update", "1", "--price", "12"],
            ["filter", "define", "f", "--title", "F", "--option", "one"],
        ])
    func usage(arguments: [String]) async throws {
        try await withTestServer { server in
            let result = try await CLISandbox().run(arguments + ["--server", server.address])
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.lowercased().contains("error"), "\(result)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test("NOT_FOUND is 69, with the status, reason and id on standard error")
    func notFound() async throws {
        try await withTestServer { server in
            let result = try await CLISandbox().run(["item", "get", "424242", "--server", server.address])
            #expect(result.status == 69, "\(result)")
            #expect(result.stderr.contains("NOT_FOUND"))
            #expect(result.stderr.contains("reason: notFound"))
            #expect(result.stderr.contains(#""id":424242"#))
            #expect(result.stdout.isEmpty)
        }
    }

    @Test("a category name that nothing has is NOT_FOUND too (69)")
    func unknownCategoryName() async throws {
        try await withTestServer { server in
            let result = try await CLISandbox().run(["category", "get", "Nowhere", "--server", server.address])
            #expect(result.status == 69, "\(result)")
            #expect(result.stderr.contains("unknownCategoryName"))
        }
    }

    @Test("ALREADY_EXISTS is 70, naming the reason, the field and the existing id")
    func alreadyExists() async throws {
        try await withTestServer { server in
            let result = try await CLISandbox().run(["category", "create", "cars", "--server", server.address])
            #expect(result.status == 70, "\(result)")
            #expect(result.stderr.contains("ALREADY_EXISTS"))
            #expect(result.stderr.contains("reason: duplicateName"))
            #expect(result.stderr.contains(#""id":2"#))
        }
    }

    @Test("INVALID_ARGUMENT is 67, naming the field at fault")
    func invalidArgument() async throws {
        try await withTestServer { server in
            let result = try await CLISandbox().run(["category", "create", "Books", "--color", "red", "--server", server.address])
            #expect(result.status == 67, "\(result)")
            #expect(result.stderr.contains("INVALID_ARGUMENT"))
            #expect(result.stderr.contains("field: color"))
            #expect(try await server.client.categories.list().count == 4, "nothing created")
        }
    }

    @Test("FAILED_PRECONDITION is 73: a default category cannot be deleted")
    func failedPrecondition() async throws {
        try await withTestServer { server in
            let result = try await CLISandbox().run(["category", "delete", "Family", "--yes", "--server", server.address])
            #expect(result.status == 73, "\(result)")
            #expect(result.stderr.contains("reason: defaultCategory"))
        }
    }

    @Test("an unreachable server is UNAVAILABLE: 78")
    func unreachable() async throws {
        let address = try unusedAddress()
        let result = try await CLISandbox().run(["category", "list", "--server", address])
        #expect(result.status == 78, "\(result)")
        #expect(result.stderr.contains("UNAVAILABLE"))
        #expect(result.stderr.contains(address))
    }

    @Test("--help documents the exit statuses")
    func documented() async throws {
        let result = try await CLISandbox().run(["--help"])
        #expect(result.status == 0, "\(result)")
        for status in ["0 ", "1 ", "2 ", "64+N", "69 NOT_FOUND", "78 UNAVAILABLE", "124 "] {
            #expect(result.stdout.contains(status), "\(status) in \(result.stdout)")
        }
    }
}
