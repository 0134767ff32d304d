import CatalogKit
import Testing

@Suite("Errors carry the status code, message and the contract's reason, field and details")
struct ErrorTests {
    @Test("a duplicate name is ALREADY_EXISTS, reason duplicateName, with the existing id")
    func duplicateName() async throws {
        try await withConnectedClient { client in
            let books = try await client.categories.create(name: "Books")
            let error = try await #require(throws: RPCError.self) { try await client.categories.create(name: "  books ") }
            #expect(error.code == .alreadyExists)
            #expect(error.reason == "duplicateName")
            #expect(error.details["id"]?.int64Value == books.id)
            #expect(!error.message.isEmpty)
        }
    }

    @Test("an invalid field is INVALID_ARGUMENT naming the field")
    func invalidField() async throws {
        try await withConnectedClient { client in
            let error = try await #require(throws: RPCError.self) { try await client.categories.create(name: "Red", color: "red") }
            #expect(error.code == .invalidArgument)
            #expect(error.field == "color")
        }
    }

    @Test("a missing id is NOT_FOUND with details.id; an error without detail has empty accessors")
    func notFound() async throws {
        try await withConnectedClient { client in
            let error = try await #require(throws: RPCError.self) { try await client.categories.get(id: 999) }
            #expect(error.code == .notFound)
            #expect(error.details["id"]?.int64Value == 999)
            let plain = RPCError(.internalError, "boom")
            #expect(plain.reason == nil && plain.field == nil && plain.details.isEmpty)
        }
    }
}
